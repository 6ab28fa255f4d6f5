"""The ladder's commands: ``dehla ladder``, ``submit``, ``bots``, ``serve``, ``author``, ``operator``, ``worker``."""

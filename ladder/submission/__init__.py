"""A new version in: from a bot folder (``dehla submit``) or an upload, validated."""

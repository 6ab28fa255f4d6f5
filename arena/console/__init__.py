"""What every ``dehla`` command shares: printing untrusted text, option checks, the one-line
error exit, the data folder, and reading record files (the engine itself does no I/O)."""

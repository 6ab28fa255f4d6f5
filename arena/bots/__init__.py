"""Bot packages: a folder with a ``bot.toml`` manifest, its code and a Dockerfile."""

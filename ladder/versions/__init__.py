"""Bot versions as content: folders and their hashes, a worker's cache, container images."""

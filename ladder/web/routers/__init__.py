"""The web face's routers: pages, the JSON API, an author's pages, uploads, the replay viewer."""

"""Who is asking: API tokens, signed session cookies, CSRF, the service's signing secret."""

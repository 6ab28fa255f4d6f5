"""Dehla Arena: ``engine`` (the pure rules), ``contract`` (what a referee and a seat say),
``console`` (what every command shares), ``sandbox`` and ``bots`` (running untrusted bot
programs), ``referee`` (matches over gRPC) and ``cli`` (the ``dehla`` command). See
docs/architecture.md for what each layer may import."""

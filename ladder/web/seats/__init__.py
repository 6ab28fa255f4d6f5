"""A person's seat at a table of three bots, played from the browser (``docs/web.md``, "Play a
seat"): the seat is an SDK bot served over gRPC whose decisions wait for the browser (``person``),
a table plays it with the referee of ``dehla match`` (``tables``), and the browser is shown only
what that seat's observation holds (``view``)."""

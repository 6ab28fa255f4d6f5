"""The values every side of a match shares, and nothing else: what the referee says to a seat
and hears back (``messages``), time control, fault kinds and policies, how a match ended
(``status``). Built on the engine's values; the protocol, the referee and the SDK are built on it."""

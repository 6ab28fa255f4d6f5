"""The referee: runs matches between four seats, each a bot endpoint, with clocks and fault policy.

The engine stays pure; everything with clocks, processes and the wire lives here.
"""

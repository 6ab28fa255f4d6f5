"""The operator's and the authors' bookkeeping: tokens, switches, re-rating."""

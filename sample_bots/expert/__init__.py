"""``expert``: the search bot's determinized Monte Carlo over worlds weighted by inference on the plays seen."""

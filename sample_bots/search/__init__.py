"""``search``: determinized Monte Carlo search over sampled hidden hands, within its time budget."""

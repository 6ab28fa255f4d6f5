"""The replay viewer: a hand record stepped card by card, from any seat's perspective."""

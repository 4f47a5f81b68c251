"""Drop-ins for the places users already evaluate: ``paddle.Model`` (hapi) and the suites' loops."""

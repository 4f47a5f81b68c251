"""The signature rows, by family; :mod:`..table` joins them in match order."""

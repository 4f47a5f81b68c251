"""The literals the scanner looks for (:mod:`.triggers`) and the finders that find them in a chunk
(:mod:`.finders`: Aho-Corasick, or Hyperscan with its database kept compiled between runs, :mod:`.hsdb`)."""

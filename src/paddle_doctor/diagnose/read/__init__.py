"""Reading: from what the user passed (dirs, files, stdin; gzip, UTF-16, CRLF, ANSI) to events.

``sources`` finds the files and their ranks, ``opener`` decodes one, ``scan`` picks the few lines
that matter, ``parse`` turns them into events, ``readall`` does it for every source.
"""

"""Rules of the games: the variant catalog, rules profiles, hand evaluation and the replay engine."""

from pipeline.hot_path import choose

choose()  # before any hot module is imported: BARGE_PURE=1 runs them as plain Python

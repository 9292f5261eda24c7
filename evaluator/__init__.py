"""Rules of the games: the variant catalog, rules profiles, hand evaluation and the replay engine."""

"""The hand generator behind `barge generate`: random legal hands of every BARGE variant.

    barge generate --variant ID|all --hands N --seed S --format native|phh [--break-rate R]
                   [--jobs J] OUT_FOLDER

`world` sets each hand up (events, tables, players, stakes, stacks, the button, the clock),
`play` plays it through the replay engine with the moves `evaluator.legal` says are legal and
fills in the dealer's awards from the engine's settlement, `breaks` makes labelled rule breaks
on purpose (listed in `breaks.csv` with the finding code the audit must report), and `output`
streams the hands to one file per variant. A hand depends only on (seed, variant, index).
"""

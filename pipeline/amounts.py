"""Chip amounts: exact fixed-point integers in hundredths of a unit.

Hand histories write amounts as integers or decimals with optional thousands separators
("1,250", "0.25", "12,000.50").  Every amount in the model is an `int` counting hundredths,
so sums and comparisons are exact and cheap; the store keeps them as DECIMAL(18, 2).

>>> parse_amount("1,250")
125000
>>> format_amount(parse_amount("0.5"))
'0.50'
>>> format_amount(125000)
'1,250'
"""

from __future__ import annotations

SCALE = 100  # hundredths: the smallest chip or currency unit a history may write
MAX_WHOLE_DIGITS = 16  # the store's DECIMAL(18, 2)


class AmountError(ValueError):
    """An amount that cannot be represented exactly in hundredths."""


def parse_amount(text: str) -> int:
    """Parse a written amount into hundredths; raises AmountError past two decimals or when
    it is too large to store."""
    digits = text.replace(",", "")
    whole, _, frac = digits.partition(".")
    if len(whole.lstrip("0")) > MAX_WHOLE_DIGITS:
        shown = text if len(text) <= 24 else text[:20] + "..."
        raise AmountError(f"amount {shown} is too large (at most {MAX_WHOLE_DIGITS} digits)")
    if len(frac) > 2:
        if frac[2:].strip("0"):
            raise AmountError(f"amount {text[:24]} has more than two decimals")
        frac = frac[:2]
    return int(whole or "0") * SCALE + int(frac.ljust(2, "0") or "0")


def format_amount(value: int) -> str:
    """Write hundredths back as text: whole amounts without decimals, others with two."""
    sign = "-" if value < 0 else ""
    whole, cents = divmod(abs(value), SCALE)
    if cents:
        return f"{sign}{whole:,}.{cents:02d}"
    return f"{sign}{whole:,}"

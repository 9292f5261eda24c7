"""Grammars (`.lark`) for hand-history formats and the code that turns them into hand models."""

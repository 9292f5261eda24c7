"""The barge dashboard: a multi-page Streamlit app over a barge DuckDB database (docs/dashboard.md).

`launch.serve` starts it; `app.py` is the Streamlit entry point and `views/` holds its pages.
The pure parts (the SQL of `queries`, the action stepping of `stepping`, the SVG table of
`table_svg`, the hand classes of `winning`) do not import Streamlit and are tested on their own.
"""

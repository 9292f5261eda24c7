"""The dashboard's pages, one Streamlit script each, run by `st.navigation` in `dashboard/app.py`.

They are scripts, not libraries: importing one runs the page, so nothing imports them.
"""

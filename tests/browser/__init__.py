"""Helpers of the real-browser test (tests/test_browser.py): a minimal WebDriver client and the
script that installs Chromium."""

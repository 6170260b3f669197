"""The Python example host runs and prints the answers the other doors give."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_demo_runs():
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", "python", "demo.py")],
        check=True, capture_output=True, text=True, env=os.environ.copy(),
    ).stdout
    assert "round trip from Mount Vernon: 157.2 miles over 6 legs" in out
    assert "skipped McLeansboro: '38.093389;-88.535616'" in out
    assert "straight-line miles from home: 20.1, 21.5, 41.0, 45.3, 22.6" in out
    assert "Rain, 45°F | Sunny, 72°F" in out
    assert "Springfield, IL | Springfield, Illinois, United States" in out
    assert "where and when: Kayenta, AZ, 4:00 AM MDT (America/Denver)" in out
    assert "where and when: Flagstaff, AZ, 3:00 AM MST (America/Phoenix)" in out
    assert "now in Springfield, IL: " in out
    assert "parse_coord('91,0'): latitude 91 is outside [-90, 90]" in out
    # The walk: the same fixes, stops and events as the C host's `geoloc-demo track`.
    assert "walk: 166 fixes, 136 kept; stopped at fix 62, moving again at 89" in out
    assert "enter Lincoln Home (fix 46), dwell Lincoln Home (fix 76), exit Lincoln Home (fix 91)" in out
    assert "exit Downtown square (fix 147)" in out
    assert "track: 1856 m in 1650 s" in out

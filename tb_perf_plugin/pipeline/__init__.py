"""From a run's files to what the views show: reading them into tables (read.py), steps and
clocks (steps.py), the analysis and findings (analyze.py), the timeline (lanes.py builds
timeline.py's Timeline) and the Chrome-trace export (export.py). The store runs these as jobs;
nothing here keeps state between calls."""

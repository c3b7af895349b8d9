# SystemExit in a cell (IPython reports it as an error of that cell).
import sys

sys.exit(3)

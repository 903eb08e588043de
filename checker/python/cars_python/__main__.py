"""`python3 -m cars_python FILE.py ...`: report.main."""
import sys

from .report import main

sys.exit(main())

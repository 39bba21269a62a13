"""The MinHash permutations of the default settings (256 permutations, seed 1), drawn once.

``minhash.permutations`` draws them with ``numpy.random.RandomState`` as datasketch does;
importing ``numpy.random`` costs the hook ~10 ms on every run, so the default pair is kept
here (little-endian uint32, base64).  tests/test_minhash.py checks it against RandomState.
"""

from __future__ import annotations

NUM_PERMUTATIONS = 256
SEED = 1
A = (
    "S+iD1dcBj/4ZX85wkSh43f/9DgATh5lBl1XLmgs9gv+fliNLgafgeCEBRy8DoQzLmX9dX488nMbbVe2w+fPoVg0bJcsz+v7e"
    "ZcnfEymqT7H9qaDWy2JloCUX1V6pk5EMF/etaPlBDOPVm5jBOSWLdTu/BQ4ds54RZYRHV4nU8tOv+ajVr78W6tOXDB7jhYTc"
    "78vgR71b1eDBjm1lrQiJjhsx+5nTr5NuE/u/7w8IA5t/Inmge5aDLy0ceGJzSksJAxS2wAHv47p54gnKo/GFqBHqiiuxxcGo"
    "G/3+E+c0zYtfA/RW1R9VHvPkm8GRc09XPYRaMo9Ipi8Ha5vXjQvjVyt/cOpj3NXScwr7EAdkJWWJtz1iMVZKlONDi6FX+MNI"
    "mQx9XzWYDpFpDlSroUo409sUXQnn5n4RU+oSgKXbgD8fAEz6gdg+UomRD38zYNSY31qWj8W9a+SvaxyUD0+6cTUK2jQz/Y8l"
    "0UxS5S0IQPATbjPRh309Mc+XVJb9iIbOL0pXk/vaLT3JGpNCN4GyDEt36glzotAqp1SQW03ZbtURhVpsQUom0kW79YcVXg2Z"
    "L3qv+x8NNSvfVVIbrzi/ITO+8iWPH1Y65wEgS7kKv+mVdLktfQmfhV26RmZBp0d2sS1lNC8pIBFvJf/Tg0pe5uNqiGObTnL8"
    "B04P1AGXyRTxf5MZ+6nth5sDYRINjjcXaeTcU6ujqUeNi58HBey1lZnsoeO3H0IPK/FQLJcFKcQPsorOmzDiFJEVY0aXqF3l"
    "mTpPR1cIxsgpZGKdPbxSwUlMnMvPZqwTD06pVFse+k2JZ+LaczT3uOFdDrL5O1skpXFqgMGAkkYbArZzFVisQC+yQMT5fmJh"
    "o/ZRPw/PpUvzhnuAMYE3tZXNorK5e8aGKf0zikFTi7YZmbHKg3ltgb3ELtt5PD/D04P/7TGB+QWlmq5T5yYI/8PmTj4FEcgl"
    "2fu/OrlN65LPdCPmxW7NIBXiWuZtPeu1wa4iKNNzOOKlTvfQrZN1wo2ZW3mFdZ2Gj8KHzs9/DothUbklbexLmh84eAELd6SL"
    "I2v6O1XRTE4pAD6n7bRCKGGP2g0tspwEyzOaxRufB2vjD+y25dT38MOEK9FrrXiHqQ4pPxUYTu/BuBkIb4G6iXsy39txnNOp"
    "sz29YStDRxrPGaH+wbjhI/MDPVinP+jxM6g2RuOrS3wdJ33dGxFIYqlZxWTpPLrtV8bKIQ0d8nWbDcyCcQU5BHcP/IEfd8lq"
    "MayW2PdnPhkT+UxshUOoCY9xoD9r3jRYi7otCkmT6crLhmsN8ZX4Niswfg5R2gUFm2APfrcRSzRjlVW449LSk1+q4RObC6l2"
    "UXsLG50rcu9brB6vr85/jg=="
)
B = (
    "kNLJH5yvzjvqlHhHLT5wF8NR9JV04++RQm03+M47/WourZ+PgPkqXp0RxgQ/cCDQS0P2zCO2LUq1M6Q73fmmtyFyns6CKuqc"
    "1NVKY1P2SW0wFBHdNr96wCBdQ7/9IIVtnMJljjd4qm3Suu4iH8WlXBzEVg/eMEEnSl0QH4i06+9twGcLY9aZ6iC8hBsIbi7I"
    "VBbIOc27x50ycoa2T0I3CamcSY9Aw4GnbN42A9OUOCEY6GwScSRbS+prn/cUW15cLAhvkQ8lT0aeBgs026HvEo5rmEDzdfIm"
    "E19rvvvUXymaqgcy62hP8Fbw05SHoQJf4zpT+DX8zQyvxcnYbkOvvbypZj3zTnZMIrFnfmTQUDTkarWeIGdU+5MXONTDCZ3k"
    "GHsjKNOuZMLlaMEEXtavpqb47BGvsigK5xyBfIUzWtBPaDibP/43w3E/oJFXZI10oKk+USrHJYjK8hX9wnL9G9guapTiZmIl"
    "nu5QYZH6P4JE8QqNQNs0N7w8zr70DZzqzthSq5GgT3anxNFDo0TcIdFR+xCcVqXDlta9Xia3dTapKjWhypkCE832zTVGZW0Y"
    "mZa0wOZMhinwiAgRMDRBW7ICpEK+F2YYLGUEzmnirCS26IQxAN1W7la1s6P3BZuTEMtQhhP98tYJN8DscBKQn9xqZ0MzlBNT"
    "b9PiEIr4Xrp7SC28RBHShZd1rcUOrZ+8v55m6BUOWCquuJXufA3jr4NUkgO4eUNtWCf/O9C8grquL+WdNjKfwc+78vJH2sll"
    "/L0+8w7q2ezN0oCOj0AZNJktZeo1dwwC1K49pPlRJe26i9dj1RtlS3LiaXzuVr0qnRe0miyGKwYlLK+MlmC2c9s5Gu22Se/O"
    "TB0y6wzyTV54kRZlO/30m5pfmPbMx+sIx1uILNeSxVqnIVcgfeIZFCuMlCLMlXSxchNzgSYjQQNbpoIFcMKkdf0srvJF4xj2"
    "4ta906EpjVWrSNgDmnXaeLgyGy3F6/oaSR4CVTSVyYBZAokhG5K84ivIOs8B9MyIUqlAWH/cDkhe4qrw4A/GWprh/pRUn3Ll"
    "HiL74Gc70j1AhEDYlkQdBmLKx+c03zn3g7a6dUZgEm6MYt2LJ12mWOZIccxTtLqT794kSbAEZCA9QYF9xgk28w1LX5mkzEhQ"
    "F/35A5a97PPCZe6Xep7oN9xpBW/50Ko/6i2vzl8dIt014rNQiYs6PKlalOS5ZarQWHPuk23ZPIv2Shsv3W72MPS6tcnMNr6W"
    "UhOunGqxUgyL/8wNaUAQBCTQkWtw3LkMkHTXrZ4UQGZzfCnravqvk9RYGgC5nxXeI+MM+qntQclRkWdgAjM0QdXgSfldqA4V"
    "pKzOmm2yYiguPS/UUFOhNQ=="
)

"""Players' accounts and what a hand leaves them: beans, results, ratings, titles.

- ``users`` — names, argon2 passwords, registration, login limits;
- ``settlement`` — a finished hand or a penalty settled in its own transaction
  (``BeanSettings``, ``finish_tx``, ``purse_tx``, relief 救济);
- ``profile`` — a player's page and the leaderboards (reads only).
"""

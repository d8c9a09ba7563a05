"""The hall and its tables: every room an asyncio actor owning its current hand.

- ``hall.Hall`` — the tables of a process, the store's writer, the lobby, names;
- ``table.Table`` — one room (with ``updates``: what it tells each connection;
  ``autoplay``: timers, computer players and 托管; ``connection.Conn``: one connection;
  ``host.TableHost``: what it needs of its hall);
- ``cluster_rooms.Cluster`` — the rooms a worker of a cluster claims, plays and gives up;
- ``bot_pool.BotPool`` (最强 bots' searches in processes), ``analysis_jobs.Analyses``
  (复盘), ``hints.Hints`` (提示), ``deal`` (the Shengji deal's pace), ``replays.frames``;
- ``throttle.Limits`` / ``Throttle`` / ``FloodWatch`` (fair shares), ``limits``
  (values refused at the door), ``games_info`` (the room form), ``phrases`` (快捷语).
"""

"""The reason codes of the hall's own refusals (the engines register theirs).

A client translates an ``error`` by its ``code`` and fills the sentence with its
``params`` (see :mod:`paiju.errors`); the templates here are the English sentences.
"""

from __future__ import annotations

import paiju  # noqa: F401 - the engines' codes first: a code both raise keeps the engine's sentence
from paiju.errors import REASONS, reasons


def _hall_reasons(**codes: str) -> None:
    """Register the hall's codes; one an engine registered already (``unknown_game``) is its."""
    reasons(**{code: text for code, text in codes.items() if code not in REASONS})


_hall_reasons(
    # the connection and the message
    bad_message="the hall cannot read this message: {detail}",
    unexpected="the hall could not handle this message; nothing was changed",
    no_name="choose a name first",
    no_such_room="there is no such room",
    refused_origin="this page may not act in the hall",
    json_only="send the body as application/json",
    too_many_connections="too many connections: close another tab first",
    unavailable="the hall cannot reach its database right now; try again in a moment",
    save_failed="the hall cannot save right now; your move was not taken — try again",
    room_moved="this room moved to another server; your move was not taken — reconnecting",
    room_moving="this room is moving to another server; reconnecting in a moment",
    worker_busy="this server is restarting; reconnecting to another in a moment",
    room_damaged="this room is set aside as damaged",
    # accounts and beans (accounts/users.py, beans at the table)
    bad_username="a user name is 2-20 letters, digits, _ or -",
    bad_password="a password is {min}-{max} characters",
    username_taken="that user name is taken",
    wrong_login="wrong user name or password",
    login_too_fast="too many failed logins: try again in {seconds} s",
    account_disabled="this account is disabled",
    already_account="you are logged in to an account: log out first",
    not_account="log in to an account first",
    too_few_beans="this room needs {min} beans to sit; you have {beans}",
    no_relief="relief is given once a day to a balance under {below}",
    # the bean economy's integrity (paiju.stakes, settlement.py, users.py)
    beans_do_not_cover="one hand here can cost {need} beans; you have {beans}",
    same_address="another player from your address sits at this table, where beans are at stake",
    too_many_registrations="{count} accounts were registered from your address in the last hour: try later",
    start_beans_pending="your start beans come after {hands} more scored hands",
    # replays and analysis (replays.py, analysis_jobs.py)
    too_many_replays="too many replays: try again in a minute",
    replays_busy="the hall is building many replays already: try again soon",
    too_many_guests="too many new guests from your address: try again in a minute",
    analysis_address="{count} analyses asked from your address are still running: wait for one to finish",
    analysis_busy="the hall is analysing {jobs} hands already: try again in a minute",
    analysis_yours="your analysis of another hand is still running: wait for it to finish",
    bad_own_multiplier="your own multiplier is 1 to 4, set between hands in a room that allows it",
    # seats
    not_seated="you are not seated at this table (spectators cannot act)",
    no_such_seat="there is no seat {seat}",
    already_seated="you already have a seat at this table",
    seat_taken="seat {seat} is taken",
    no_bot_there="seat {seat} has no computer player",
    bot_stays="a computer player cannot leave during a hand",
    bad_bot_level="a computer player's level is one of {levels}",
    hand_going_on="a hand is being played: leave instead (it costs the leave penalty)",
    already_left="you have already left this hand",
    # the hand
    already_playing="the hand is already being played",
    not_all_seated="every seat must be taken first (empty: {empty})",
    hand_not_started="no hand is being played",
    not_your_turn="it is not your turn: seat {seat} is to act",
    stale_turn="the hand has moved on: it is at turn {turn}, you chose at turn {chosen}",
    hosted_on="your seat is on 托管: switch it off to play yourself",
    hosted_not_now="托管 is for a hand being played",
    hosted_locked="托管 is locked: auto-played more than {times} times in this hand, or you left",
    hint_not_yours="a hint is given to the seat to act",
    declare_too_late="the deal is over: your declaration {action} came too late",
    # words to the table
    say_too_fast="you are talking too fast: at most one message every {seconds} s and {count} a minute",
    chat_off="free text chat is off in this room: choose a quick phrase",
    say_too_long="a message is at most {max} characters",
    say_empty="say either a quick phrase or some text",
    # rooms (HTTP)
    unknown_game="there is no game {game}",
    bad_room_options="the room options are not valid: {detail}",
    bad_room_name="a room's name may not contain invisible or control characters ({char})",
    bad_turn_timeout="the turn timeout is between 1 and 600 seconds",
    too_many_rooms="you have {count} open rooms already: play in one, or wait until an empty one closes",
    rooms_too_fast="too many new rooms: at most {count} a minute",
    bad_value="{where} is not a value the hall takes",
    bad_param="{name} is a whole number from {min} to {max}",
    bad_name="a name is 1-{max} visible characters",
)

_hall_reasons(
    # the people in charge (accounts/moderation.py, tables/moderation.py, web/admin_api.py)
    not_admin="only an administrator may do this",
    bad_reason="give a reason of 1-{max} characters",
    bad_minutes="minutes is a whole number from 0 or 1 to {max}",
    bad_role="a role is one of {roles}",
    bad_grant="beans is a whole number, not 0, and the balance cannot go below 0",
    no_such_player="there is no such player",
    muted="you are muted for {minutes} more minute(s)",
    barred="an administrator removed you from this room: you cannot sit here again",
    nobody_to_kick="there is no person in seat {seat}",
    not_room_owner="only the room's creator may unseat a player",
    nobody_to_unseat="there is no other person in seat {seat}",
    unseat_not_now="a player can be unseated only between hands",
    # reports 举报 (accounts/reports.py)
    bad_report_reason="a report's reason is cheating, abuse, stalling or other",
    bad_report_text="a report's text is at most {max} characters",
    nobody_to_report="there is no person in seat {seat} to report",
    report_self="you cannot report yourself",
    too_many_reports="at most {count} reports an hour",
    no_such_report="there is no such report",
    report_closed="this report is closed already",
    # playing together (accounts/social.py, tables/access.py, web/social_api.py)
    register_to_follow="register an account to follow players",
    register_to_block="register an account to block players",
    follow_self="you cannot follow yourself",
    block_self="you cannot block yourself",
    too_many_follows="you follow {count} players already",
    too_many_blocks="you block {count} players already",
    blocked_table="you cannot sit at this table: you and a player here blocked one another",
    seat_reserved="seat {seat} is reserved for another player",
    room_password="this room has a password",
    bad_room_password="a room's password is 1-{max} characters",
    bad_invite="this invitation is not the room's",
    password_too_fast="too many wrong passwords: try again in {seconds} s",
    not_room_creator="only the room's creator may change who may come",
    # competition mode 比赛 (tables/competition.py)
    no_hint_in_competition="no hints in a competition room (不许提示)",
    seat_locked="the seats are kept until the match ends (比赛过程中不许换座位)",
    not_referee="only the competition's referee pauses and resumes the table",
    table_paused="the referee paused the table: wait until it resumes",
    invite_self="you cannot invite yourself",
    invite_not_friend="you invite the players you follow",
    invite_blocked="you cannot invite this player",
    invites_too_fast="at most 20 invitations in 10 minutes",
    no_such_invitation="there is no such invitation",
    # why the hall ends a connection (a ``closed`` message) or unseats a player (a ``notice``)
    kicked="an administrator removed you from this game: {reason}",
    session_ended="this session was ended: log in again",
    room_closed="an administrator closed this room: {reason}",
    unseated="you were unseated",
)

_hall_reasons(
    # tournaments 比赛 (server/tournaments)
    too_few_entrants="a {game} tournament needs at least {min} entrants; it has {count}",
    pair_of_one="a {game} entrant is a pair of two different players: {entrant} has {count}",
    entrant_twice="{player} is entered twice",
    bad_rounds="a Swiss tournament plays 1 to {max} rounds",
    bad_boards="a round plays {min} to {max} boards, a multiple of {step}",
    bad_tournament_format="a tournament's format is swiss or knockout",
    no_such_board="table {table} has no board {board} in seating {rotation}",
    bad_board_scores="a corrected hand has {seats} seat scores, whole numbers",
    no_such_tournament="there is no such tournament",
    tournament_closed="registration is closed: the tournament has started",
    not_tournament_director="only the tournament's creator or an administrator may start it",
    knockout_not_played="the hall plays Swiss tournaments only, so far",
)

#: warnings of a legal action the player should confirm (a ``check`` answer's ``warning``)
_hall_reasons(call_makes_solo="you hold every {card}: calling it, you play 暗独 alone against four")

// @ts-check
// 双扣 Shuangkou's rules page (#/help/shuangkou), in Chinese and English: each rule as the
// room's options set it (docs/rules/shuangkou.md in the hall's words). Pure data and
// functions of the options, no DOM: tests/test_help_pages.py loads it in node.

/** @typedef {import("../help.js").HelpContent} HelpContent */

/** @type {HelpContent} */
const content = {
  intro: {
    zh: [
      "双扣是四个人两两对家组队的出牌游戏，用两副牌（带大小王）。先把手里的牌出完；一方两个人都出完这一局就结束。",
      "第一个出完的人那一队赢；他的对家出完得越早，赢得越多：双扣、单扣、平扣。",
    ],
    en: [
      "Shuangkou is a climbing game for four players in two teams of partners sitting opposite, with two packs and their jokers. Get rid of your cards: the hand ends as soon as both players of one team are out.",
      "The team of the first player out wins; the sooner his partner follows, the more it wins: a double, a single or a level result.",
    ],
  },
  rules: [
    {
      opts: [],
      zh: "牌：两副牌共 108 张，每人 27 张。大小：大王 > 小王 > 2 > A > K > … > 3，不分花色。",
      en: "Cards: two packs, 108 cards, 27 each. Ranks: big joker > small joker > 2 > A > K > … > 3; suits never count.",
    },
    {
      opts: [],
      zh: "先出：每盘第一局和双扣之后随机选人先出；单扣、平扣之后由上一局的头客先出。",
      en: "First lead: in a match's first hand and after a double, a seat drawn at random; after a single or a level result, the previous hand's first finisher.",
    },
    {
      opts: ["min_triple_run"],
      zh: (o) => `牌型：单张、对子、三张、顺子（五张以上相连，不含 2 和王）、连对（三对以上相连）、连三张（${o.min_triple_run} 个以上三张相连）、炸弹（四张以上同点数，最多八张）。`,
      en: (o) => `Combinations: single, pair, triple, straight (five or more in a row, no 2 or joker), pair run (three or more pairs in a row), triple run (${o.min_triple_run} or more triples in a row), bomb (four to eight of one rank).`,
    },
    {
      opts: ["four_joker_bomb"],
      zh: (o) => `管牌：同样的牌型、同样张数、更大的才能管。炸弹管一切非炸弹；炸弹之间张数多的大，张数一样点数大的大。${o.four_joker_bomb ? "四个王（天王炸）最大。" : "王不能组成炸弹。"}`,
      en: (o) =>
        `Beating: the same combination with as many cards and a higher top rank. A bomb beats anything but a bomb; between bombs more cards win, then the higher rank.${o.four_joker_bomb ? " The four jokers are the highest bomb." : " Jokers make no bomb."}`,
    },
    {
      opts: [],
      zh: "接风：出完最后一手牌的人，如果没人管，由他的对家接着出。",
      en: "Partner lead: when a player goes out with a play nobody beats, his partner leads next.",
    },
  ],
  scoring: [
    {
      opts: ["points_double", "points_single", "points_level"],
      zh: (o) => `第一个出完的人的对家第二个出完是双扣，赢的每人 +${o.points_double}；第三个出完是单扣，+${o.points_single}；最后（对方占了二、三名）是平扣，+${o.points_level}。输的两人各输同样多。`,
      en: (o) =>
        `If the first finisher's partner is 2nd out, it is a double: each winner +${o.points_double}; 3rd, a single: +${o.points_single}; last (the others took 2nd and 3rd), a level result: +${o.points_level}. Each loser pays as much.`,
    },
  ],
  example: {
    opts: ["points_single"],
    zh: (o) => ({
      lines: [`0 号座位第一个出完，3 号第二，他的对家 2 号第三：单扣。`, `0 号和 2 号各 +${o.points_single}，1 号和 3 号各 −${o.points_single}。`],
      scores: [o.points_single, -o.points_single, o.points_single, -o.points_single],
      names: ["赢家", "输家", "赢家", "输家"],
    }),
    en: (o) => ({
      lines: [`Seat 0 goes out first, seat 3 second and his partner seat 2 third: a single.`, `Seats 0 and 2 +${o.points_single} each, seats 1 and 3 −${o.points_single} each.`],
      scores: [o.points_single, -o.points_single, o.points_single, -o.points_single],
      names: ["Winner", "Loser", "Winner", "Loser"],
    }),
  },
};

export default content;

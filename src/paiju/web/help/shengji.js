// @ts-check
// 升级 Shengji's rules page (#/help/shengji), in Chinese and English: each rule as the
// room's options set it (docs/rules/shengji.md in the hall's words). Pure data and
// functions of the options, no DOM: tests/test_help_pages.py loads it in node.

/** @typedef {import("../help.js").HelpContent} HelpContent */

const PACKS = { 1: [54, 12, 6, 100], 2: [108, 25, 8, 200], 3: [162, 39, 6, 300] };
/** @param {string} r */
const rank = (r) => (r === "T" ? "10" : String(r));
/** @param {any} o points per level step: the room's level_step, else 20 per pack */
const step = (o) => Number(o.level_step) || 20 * Number(o.decks);
/** @param {any} o the defenders' points from which they take over: 40 per pack, whatever the step */
const takeOver = (o) => 40 * Number(o.decks);
/** @param {any} o */
const levelsText = (o) => (o.levels === "all" ? null : o.levels === "competition" ? "2,5,10,J,Q,K,A" : String(o.levels).replace(/T/g, "10"));

/** @type {HelpContent} */
const content = {
  intro: {
    zh: [
      "升级（拖拉机、80 分）是四个人两两对家组队的吃分游戏。每局一方做庄，另一方抓分；按抓到的分数，庄家一方或抓分方升级。",
      "每队从一个级开始往上打，打到最后一级并在这一级做庄赢下一局就赢了整盘。这一局打的级和亮出的花色是主牌。",
    ],
    en: [
      "Shengji (Tractor, “80 points”) is a point-taking game for four players in two teams of partners sitting opposite. In each hand one team declares and the other collects points; the points decide which team goes up how many levels.",
      "Each team climbs from its starting level; a team that wins a hand as declarers at the last level wins the match. The hand's level rank and the declared suit are trumps.",
    ],
  },
  rules: [
    {
      opts: ["decks"],
      zh: (o) => {
        const [cards, each, kitty, points] = PACKS[o.decks];
        return `牌：${o.decks} 副牌共 ${cards} 张，每人 ${each} 张，底牌 ${kitty} 张，分牌共 ${points} 分（5 是 5 分，10 和 K 是 10 分）。`;
      },
      en: (o) => {
        const [cards, each, kitty, points] = PACKS[o.decks];
        return `Cards: ${o.decks} ${Number(o.decks) === 1 ? "pack" : "packs"}, ${cards} cards, ${each} each and a kitty of ${kitty}; ${points} points in the cards (each 5 scores 5, each 10 and K scores 10).`;
      },
    },
    {
      opts: ["start_level", "levels", "win_at", "jack_reset"],
      zh: (o) =>
        `级：两队都从 ${rank(o.start_level)} 开始${levelsText(o) ? `，只打 ${levelsText(o)} 这几级（必打，不能跳过）` : ""}；在 ${rank(o.win_at)} 做庄赢一局就赢了整盘。${o.jack_reset ? "打 J 时庄家被闲家用 J 抠底，庄家回到 2。" : ""}`,
      en: (o) =>
        `Levels: both teams start at ${rank(o.start_level)}${levelsText(o) ? `, playing only the levels ${levelsText(o)} (none may be skipped)` : ""}; winning a hand as declarers at ${rank(o.win_at)} wins the match.${o.jack_reset ? " Playing J, declarers whose last trick the defenders win with a J fall back to 2." : ""}`,
    },
    {
      opts: ["twos_trump"],
      zh: (o) => `主牌：大王 > 小王 > 主花色的级牌 > 其他级牌${o.twos_trump ? " > 主花色的 2 > 其他 2（2 是常主）" : ""} > 主花色 A > K > …。其他花色 A > K > … > 2，去掉级牌。`,
      en: (o) => `Trumps: big joker > small joker > the level card of the trump suit > the other level cards${o.twos_trump ? " > the trump suit's 2 > the other 2s (2s are always trumps)" : ""} > trump A > K > …. Other suits rank A > K > … > 2 without the level rank.`,
    },
    {
      opts: ["self_overturn", "declare_with_joker"],
      zh: (o) =>
        `亮主：发牌时${o.declare_with_joker ? "亮一张王加一张级牌" : "亮一张级牌"}定主花色；别人可以用${o.declare_with_joker ? "一张王加一对级牌" : "一对级牌"}反主，一对小王或大王反成无主。${o.self_overturn ? "亮主的人自己也可以反（自反）。" : "亮主的人自己不能再反。"}`,
      en: (o) =>
        `Declaring: during the deal, showing ${o.declare_with_joker ? "a joker with a level card" : "a level card"} declares its suit; another player overturns with ${o.declare_with_joker ? "a joker and a pair of level cards" : "a pair of level cards"}, and a pair of jokers makes the hand no-trump. ${o.self_overturn ? "The declarer may overturn himself too." : "The declarer may not overturn himself."}`,
    },
    {
      opts: ["no_bid"],
      zh: (o) => (o.no_bid === "no_trump" ? "发完牌没人亮主就打无主。" : `发完牌没人亮主，就翻底牌第 ${o.no_bid.split(":")[1]} 张，它的花色是主（王就是无主）。`),
      en: (o) => (o.no_bid === "no_trump" ? "If nobody declares, the hand is played no-trump." : `If nobody declares, the kitty's card number ${o.no_bid.split(":")[1]} is turned: its suit is trump (a joker: no-trump).`),
    },
    {
      opts: ["overturn_changes_declarer", "kitty_steal"],
      zh: (o) =>
        `庄家：第一局${o.overturn_changes_declarer ? "最后反主的人" : "第一个亮主的人"}做庄；以后庄家方赢了由庄家的对家做庄，闲家上台由庄家的下家做庄。庄家拿底牌，再扣回同样多张。${o.kitty_steal ? "抢底：扣底后别人可以用更大的亮主把底牌拿去重扣（庄家不变）。" : ""}`,
      en: (o) =>
        `Declarer: in the first hand ${o.overturn_changes_declarer ? "whoever overturns last" : "whoever declares first"} declares; later, if the declarers win, the declarer's partner declares next, and if the defenders take over, the declarer's next player does. The declarer takes the kitty and buries as many cards.${o.kitty_steal ? " Kitty steal: after the burial a stronger declaration takes the kitty up to bury again (the declarer stays)." : ""}`,
    },
    {
      opts: ["throw_penalty"],
      zh: (o) => `出牌：首家出单张、对子、拖拉机（同花色相邻的对子），或者同一花色的几样一起甩。甩牌要别人都管不上才算，否则只能出被管得上的最小部分${o.throw_penalty ? `，并罚 ${o.throw_penalty} 分` : ""}。`,
      en: (o) =>
        `Leading: a single, a pair, a tractor (adjacent pairs of one suit), or a throw of several of one suit, which stands only if nobody can beat any part of it — else the smallest part that can be beaten is played${o.throw_penalty ? `, with a penalty of ${o.throw_penalty} points` : ""}.`,
    },
    {
      opts: [],
      zh: "跟牌：有首家的花色必须跟；首家出对子就要出对子，出拖拉机就要出拖拉机，没有才出对子、单张。没有这门花色可以毙（出主牌），和首家一样的牌型才算管上。",
      en: "Following: follow the led suit while you can; a pair asks for a pair, a tractor for a tractor, then pairs, then singles. With none of the suit you may trump; a trump play wins only with the lead's shape.",
    },
    {
      opts: ["throw_evaluation"],
      zh: (o) =>
        ({
          largest_unit: "比较甩牌：比最大的那一样（最长的拖拉机或对子）。",
          all: "比较甩牌：每一样都要比首家的大。",
          highest: "比较甩牌：比最大的一张牌。",
        })[o.throw_evaluation],
      en: (o) =>
        ({
          largest_unit: "Over a throw, plays compare by their largest unit (the longest tractor or pair).",
          all: "Over a throw, every unit of a play must beat its counterpart.",
          highest: "Over a throw, the highest card decides.",
        })[o.throw_evaluation],
    },
    {
      opts: ["two_colours"],
      zh: (o) => (o.two_colours && Number(o.decks) === 1 ? "一副牌分两色：红桃方块算一门，黑桃梅花算一门，同点数同颜色就是对子。" : null),
      en: (o) => (o.two_colours && Number(o.decks) === 1 ? "Two colours: hearts and diamonds are one suit, spades and clubs another; two cards of one rank and colour make a pair." : null),
    },
    {
      opts: ["triples"],
      zh: (o) => (o.triples && Number(o.decks) === 3 ? "三副牌：三张一样的牌是一手（三同张），相邻的两个三同张是泰坦尼克。" : null),
      en: (o) => (o.triples && Number(o.decks) === 3 ? "Three packs: three identical cards are a unit (a triple), two adjacent triples a Titanic." : null),
    },
  ],
  scoring: [
    {
      opts: ["kitty_multiplier"],
      zh: (o) =>
        `闲家抓分；闲家赢最后一轮就抠底，底牌的分乘以倍数加给闲家：${
          {
            pairs_power: "副牌赢 ×1，主牌单张 ×2，对子 ×4，两对拖拉机 ×8，三对 ×16",
            unit_size: "按最后一轮首家最大的一样：单张 ×2，对子 ×4，两对拖拉机 ×8，三对 ×12",
            competition: "单张 ×2，对子 ×4，拖拉机 ×8",
          }[o.kitty_multiplier]
        }。`,
      en: (o) =>
        `The defenders collect points; if they win the last trick they add the kitty's points times a multiplier: ${
          {
            pairs_power: "a plain-suit winner ×1, a trump single ×2, pair ×4, two-pair tractor ×8, three pairs ×16",
            unit_size: "by the largest unit of the last lead: single ×2, pair ×4, two-pair tractor ×8, three pairs ×12",
            competition: "single ×2, pair ×4, tractor ×8",
          }[o.kitty_multiplier]
        }.`,
    },
    {
      opts: ["decks", "level_table", "level_step"],
      zh: (o) => {
        const u = step(o);
        const T = takeOver(o);
        if (Number(o.level_step)) {
          return `升级（闲家的分，每 ${u} 分一级）：不到 ${T} 分庄家升级——${T - u}–${T - 5} 升 1 级，每少 ${u} 分多升 1 级，0 分再多 1 级；${T}–${T + u - 5} 闲家上台做庄，不升级；${T + u} 起闲家升 1 级，每多 ${u} 分多升 1 级。`;
        }
        const top = o.level_table === "competition" ? `${3 * u}–${3.75 * u - 5} 闲家升 2 级，${3.75 * u} 以上升 3 级（一局最多 3 级）` : `${3 * u}–${4 * u - 5} 闲家升 1 级，以后每 ${u} 分多升 1 级`;
        return `升级（闲家的分）：0 庄家升 3 级；5–${u - 5} 升 2 级；${u}–${2 * u - 5} 升 1 级；${2 * u}–${3 * u - 5} 闲家上台做庄，不升级；${top}。`;
      },
      en: (o) => {
        const u = step(o);
        const T = takeOver(o);
        if (Number(o.level_step)) {
          return `Levels (the defenders' points, ${u} a level): under ${T} the declarers go up — ${T - u}–${T - 5} up 1, 1 more for every ${u} less, and 1 more at 0; ${T}–${T + u - 5} the defenders take over without a level; from ${T + u} the defenders go up 1, and 1 more for every further ${u}.`;
        }
        const top = o.level_table === "competition" ? `${3 * u}–${3.75 * u - 5} the defenders go up 2, ${3.75 * u} and more 3 (at most 3 in a hand)` : `${3 * u}–${4 * u - 5} the defenders go up 1, and 1 more for every further ${u}`;
        return `Levels (the defenders' points): 0 — declarers up 3; 5–${u - 5} up 2; ${u}–${2 * u - 5} up 1; ${2 * u}–${3 * u - 5} the defenders take over without a level; ${top}.`;
      },
    },
    {
      opts: [],
      zh: "这一局的分数就是升的级数：升级一方每人 +n，另一方每人 −n。",
      en: "A hand's score is the levels gained: +n for each player of the team that went up n levels, −n for each of the other.",
    },
  ],
  example: {
    opts: ["decks", "level_step"],
    // the defenders take T − u − 10 in tricks and the declarers win the last trick: up 2
    zh: (o) => {
      const p = takeOver(o) - step(o) - 10;
      return {
        lines: [`闲家抓了 ${p} 分，庄家赢了最后一轮，不抠底：不到 ${p + 10} 分，庄家升 2 级。`, "庄家两人各 +2，闲家两人各 −2。"],
        scores: [2, -2, 2, -2],
        names: ["庄家", "闲家", "庄家", "闲家"],
      };
    },
    en: (o) => {
      const p = takeOver(o) - step(o) - 10;
      return {
        lines: [`The defenders take ${p} points and the declarers win the last trick (no kitty bonus): under ${p + 10}, the declarers go up 2 levels.`, "Each declarer +2, each defender −2."],
        scores: [2, -2, 2, -2],
        names: ["Declarer", "Defender", "Declarer", "Defender"],
      };
    },
  },
};

export default content;

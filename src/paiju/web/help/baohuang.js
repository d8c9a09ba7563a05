// @ts-check
// 保皇 Baohuang's rules page (#/help/baohuang), in Chinese and English: each rule as the
// room's options set it (docs/rules/baohuang.md in the hall's words). Pure data and
// functions of the options, no DOM: tests/test_help_pages.py loads it in node.

/** @typedef {import("../help.js").HelpContent} HelpContent */

const PLACES_ZH = ["", "头客", "二客", "三客", "二落", "大落"];
const PLACES_EN = ["", "1st", "2nd", "3rd", "4th", "5th"];

/** @type {HelpContent} */
const content = {
  intro: {
    zh: [
      "保皇是五个人用四副牌（带大小王）打的出牌游戏。抓到皇牌（带权杖的大王）的人可以当皇帝，侍卫暗中或公开保护他，二人联手对抗其余三人（革命党）。",
      "谁先出完牌谁的名次好：头客、二客、三客、二落、大落。皇帝一方的两个名次决定这一局谁赢、赢多少。",
    ],
    en: [
      "Baohuang (“protect the emperor”) is a climbing game for five players with four packs and their jokers. Whoever draws the emperor card (the big joker with the sceptre) may become emperor; a guard protects him, openly or in secret, and the two play against the other three, the rebels.",
      "Going out early gives a good place: 1st to 5th. The places of the emperor and his guard decide who wins the hand, and by how much.",
    ],
  },
  rules: [
    {
      opts: ["deck"],
      zh: (o) =>
        ({
          full: "牌：四副牌共 216 张，第一个发牌的人 44 张，其余每人 43 张。",
          no345: "牌：四副牌去掉所有 3、4、5，共 168 张，每人 33 或 34 张。",
          weihai: "牌：四副牌去掉所有 3、4、5 和三张 6，共 165 张，每人 33 张。",
        })[o.deck],
      en: (o) =>
        ({
          full: "Cards: four packs, 216 cards; the first seat dealt gets 44, the others 43.",
          no345: "Cards: four packs without any 3, 4 or 5, 168 cards; 33 or 34 each.",
          weihai: "Cards: four packs without any 3, 4 or 5 and without three 6s, 165 cards; 33 each.",
        })[o.deck],
    },
    {
      opts: [],
      zh: "大小：大王 > 小王 > 2 > A > K > … > 3，不分花色。皇牌和侍卫牌在出牌时和同样的王一样大。",
      en: "Ranks: big joker > small joker > 2 > A > K > … > 3; suits do not count. The marked jokers play like any other joker of their kind.",
    },
    {
      opts: ["abdication"],
      zh: (o) =>
        ({
          standard: "让位：谁都可以当皇帝。不当就把皇牌传给上家；从第二个人起，不当的人要贴一张 2（没有 2 就贴王以外最大的牌）。两轮没人当就重新发牌。",
          classic: "让位：手里有三张同花色同点数的牌才能当皇帝。不当就把皇牌传给上家，不用贴牌；转一圈回来后开始逼庄：有这样三张的人必须当。",
          qingdao: "让位：手里有三张同花色同点数的牌才能当皇帝。不当的人把皇牌连同自己最大的一张牌传给上家；转一圈后开始逼庄：有这样三张的人必须当。",
          weihai: "让位：只有同时抓到皇牌和侍卫牌的人可以不当，把皇牌传给隔一个的下家，接手的人不能再传。",
        })[o.abdication],
      en: (o) =>
        ({
          standard: "Abdication: anybody may take the throne. Whoever declines passes the emperor card to his upper player; from the second player on, he attaches a 2 (or his highest card that is not a joker). After two rounds without an emperor the cards are dealt again.",
          classic: "Abdication: only a player with three cards of one suit and rank may take the throne. Whoever declines passes the card to his upper player, attaching nothing; once it has gone round, the forced cycle begins: a player with such a triple must accept.",
          qingdao: "Abdication: only a player with three cards of one suit and rank may take the throne. Whoever declines passes the card on with the highest card of his hand; once it has gone round, the forced cycle begins: a player with such a triple must accept.",
          weihai: "Abdication: only the holder of both marked jokers may decline; he passes the emperor card two seats on, and its receiver cannot pass it again.",
        })[o.abdication],
    },
    {
      opts: ["forced_four_exempts"],
      zh: (o) => (o.abdication === "classic" || o.abdication === "qingdao" ? (o.forced_four_exempts ? "逼庄时，有四张同花色同点数牌的人仍可以不当。" : "逼庄时，有四张同花色同点数牌也不能推辞。") : null),
      en: (o) =>
        o.abdication === "classic" || o.abdication === "qingdao"
          ? o.forced_four_exempts
            ? "In the forced cycle a player holding four of one suit and rank may still decline."
            : "In the forced cycle four of one suit and rank excuse nobody."
          : null,
    },
    {
      opts: ["guard", "guard_choice"],
      zh: (o) =>
        o.guard === "card"
          ? "侍卫：抓到侍卫牌（带宝剑的小王）的人就是侍卫，不能让给别人。皇帝自己有侍卫牌就是暗独。"
          : `侍卫：皇帝叫自己手里三张同花色同点数的牌（叫侍卫），持第四张的人就是侍卫；${o.guard_choice === "choose" ? "皇帝可以任选叫哪一套" : "有几套时系统按 A > K > … > 3 自动选最大的一套（不叫 2）"}。叫自己有四张的牌就是暗独。`,
      en: (o) =>
        o.guard === "card"
          ? "Guard: whoever holds the guard card (the small joker with the sword) is the guard and cannot give it away. An emperor holding it himself plays a hidden solo."
          : `Guard: the emperor calls the suit and rank of three cards he holds, and the holder of the fourth is the guard; ${o.guard_choice === "choose" ? "he may call any such set he holds" : "with several sets the best is called for him, A > K > … > 3 (never a 2)"}. Calling a card he holds all four of is a hidden solo.`,
    },
    {
      opts: [],
      zh: "明保、暗保：侍卫可以马上亮明身份（明保，分数翻倍），也可以不说（暗保），打出侍卫牌或被叫的牌时才暴露。所有人都会被问到，别人看不出谁是侍卫。",
      en: "Open or hidden guard: the guard may show himself at once (an open guard: the stake doubles) or stay hidden until he plays the guard card or the called card. Every seat is asked in turn, so the question gives nobody away.",
    },
    {
      opts: ["solo_grab", "grab_needs_four"],
      zh: (o) => (o.solo_grab ? `抢独：定了皇帝以后，别人也可以宣布明独（一打四），抢走皇牌${o.grab_needs_four ? "；只有手里有四张同花色同点数牌的人才能抢" : ""}。` : "不能抢独：只有皇帝自己可以一打四。"),
      en: (o) =>
        o.solo_grab
          ? `Solo grab: once the emperor is known, another player may declare an open solo (one against four) and take the emperor card${o.grab_needs_four ? "; only a player with four of one suit and rank may" : ""}.`
          : "No solo grab: only the emperor himself can play one against four.",
    },
    {
      opts: ["rebellion", "kick"],
      zh: (o) =>
        [
          o.rebellion ? "造反：侍卫暗保时，两个以上的人造反就成功，侍卫身份揭开，分数翻倍。" : "不能造反。",
          o.kick ? "踢：造反成功后皇帝或侍卫可以踢；明保后两个革命党踢就成立；踢一次分数再翻倍。" : "",
        ].join(""),
      en: (o) =>
        [
          o.rebellion ? "Rebellion: against a hidden guard, two or more rebels make a rebellion stand: the guard is unmasked and the stake doubles." : "No rebellion.",
          o.kick ? " Kick: after a rebellion the emperor or guard may kick; after an open guard two rebels' kicks stand; a kick doubles the stake again." : "",
        ].join(""),
    },
    {
      opts: [],
      zh: "出牌：一手牌是同一点数的若干张，可以加大小王，例如 6、77、小王 888。没有顺子，2 不能配牌。要管上，张数必须相同，而且从大到小每一张都比对方对应的那张大。",
      en: "Plays: any number of cards of one rank, jokers may be added — 6, 77, small joker + 888. No straights; a 2 stands only for itself. To beat a play, play as many cards, each one higher than its counterpart when both are sorted from high to low.",
    },
    {
      opts: ["kao"],
      zh: (o) => (o.kao ? "烤牌：对方的牌里有王时，可以多出几张来管：每张牌用一张更大的牌或一组王（两大王管大王、两小王管小王、三小王管大王）来压。" : "带大王的牌没人管得上，其他人自动过，出牌的人接着出。"),
      en: (o) =>
        o.kao
          ? "Roasting: a play holding a joker may be beaten with more cards — each of its cards by one higher card or a group of jokers (two big jokers over a big joker, two small over a small, three small over a big)."
          : "Nothing beats a play with a big joker: the others pass at once and its player leads again.",
    },
    {
      opts: ["pass_is_final", "yield_turn"],
      zh: (o) =>
        (o.yield_turn ? "让牌：可以让而不过；一圈没人管时，让过的人还有一次机会。" : "") +
        (o.pass_is_final ? "过了就不能再出，直到这一轮结束。" : "过了之后轮回来还可以再出。"),
      en: (o) =>
        (o.yield_turn ? "Yielding: instead of passing one may yield; if nobody beats the play, those who yielded get one more turn. " : "") +
        (o.pass_is_final ? "A pass is final for the rest of the trick." : "A player who passed may play again when the turn comes back."),
    },
    {
      opts: ["hold_sixes", "hold_rank"],
      zh: (o) => (o.hold_sixes ? `憋${o.hold_rank === "T" ? "10" : o.hold_rank}：这个点数的牌只能在最后一手（出完手牌那一手）里出。` : null),
      en: (o) => (o.hold_sixes ? `Holding back ${o.hold_rank === "T" ? "10" : o.hold_rank}s: cards of that rank may only be played in the play that empties the hand.` : null),
    },
    {
      opts: [],
      zh: "一局结束：皇帝和侍卫都出完，或者革命党都出完时结束（明独：第一个人出完；暗独：皇帝出完，或者别人已有两个出完）。没出完的按剩牌多少排名。",
      en: "End of the hand: when the emperor and the guard are both out, or all the rebels are (open solo: when the first player goes out; hidden solo: when the emperor goes out or two others have). Players still holding cards are placed by how many they hold.",
    },
    {
      opts: ["tribute"],
      zh: (o) => (o.tribute ? "上贡：这一局的名次决定下一局开始时的贡牌（输的一方把最大的牌给赢的一方）；每张贡牌让这一局的倍数加 2，最多 ×12。" : null),
      en: (o) => (o.tribute ? "Tribute: the places of a hand decide a tribute paid after the next deal (the losers give their highest cards to the winners); each tribute card adds 2 to this hand's multiplier, at most ×12." : null),
    },
    {
      opts: ["deal_start"],
      zh: (o) => (o.deal_start === "previous_emperor" ? "第一局从 0 号座位开始发牌，以后从上一局的皇帝开始。" : "第一局从 0 号座位开始发牌，以后从上一局的头客开始。"),
      en: (o) => (o.deal_start === "previous_emperor" ? "The first hand is dealt from seat 0, later hands from the previous emperor." : "The first hand is dealt from seat 0, later hands from the previous hand's first finisher."),
    },
    {
      opts: ["leave_penalty"],
      zh: (o) => `中途离开的人扣 ${o.leave_penalty} 分（按房间倍数折成游戏豆）。`,
      en: (o) => `A player who leaves a hand loses ${o.leave_penalty} points (in beans at the room's multipliers).`,
    },
  ],
  scoring: [
    {
      opts: [],
      zh: "皇帝和侍卫：g = 6 −（皇帝名次 + 侍卫名次），皇帝得 2g，侍卫得 g，每个革命党得 −g。例如（头客，二客）g = 3；（头客，大落）g = 0；革命党都先出完则 g = −3。",
      en: "Emperor with a guard: g = 6 − (emperor's place + guard's place); the emperor scores 2g, the guard g, each rebel −g. So (1st, 2nd) gives g = 3, (1st, 5th) g = 0, and rebels all out first g = −3.",
    },
    {
      opts: [],
      zh: "明独：皇帝头客 +24，其余每人 −6；否则皇帝 −24，其余每人 +6。暗独：皇帝头客 +12（其余 −3），二客全是 0，更差 −12（其余 +3）。",
      en: "Open solo: emperor 1st +24, everybody else −6; otherwise the emperor −24, the others +6. Hidden solo: emperor 1st +12 (others −3), 2nd all 0, worse −12 (others +3).",
    },
    {
      opts: ["rebellion", "kick", "tribute"],
      zh: (o) => `倍数（每人都乘）：明保 ×2${o.rebellion ? "；造反成功 ×2" : ""}${o.kick ? "；每次踢 ×2（踢了以后皇帝和侍卫平分本方的分）" : ""}${o.tribute ? "；每张贡牌 +2 倍" : ""}。`,
      en: (o) =>
        `Multipliers (for every seat): open guard ×2${o.rebellion ? "; a standing rebellion ×2" : ""}${o.kick ? "; each kick ×2 (after a kick the emperor and guard share their side's points equally)" : ""}${o.tribute ? "; each tribute card +2" : ""}.`,
    },
  ],
  example: {
    opts: [],
    // 明保, the emperor 1st and the guard 3rd: g = 6 − 4 = 2, doubled
    zh: () => {
      const g = 6 - (1 + 3);
      return {
        lines: [`侍卫明保；皇帝${PLACES_ZH[1]}，侍卫${PLACES_ZH[3]}：g = 6 − (1 + 3) = ${g}。`, `皇帝 2 × ${g} × 2 = +${4 * g}，侍卫 ${g} × 2 = +${2 * g}，三个革命党各 −${2 * g}（明保 ×2）。`],
        scores: [4 * g, 2 * g, -2 * g, -2 * g, -2 * g],
        names: ["皇帝", "侍卫", "革命党", "革命党", "革命党"],
      };
    },
    en: () => {
      const g = 6 - (1 + 3);
      return {
        lines: [`The guard shows himself; the emperor goes out ${PLACES_EN[1]}, the guard ${PLACES_EN[3]}: g = 6 − (1 + 3) = ${g}.`, `Emperor 2 × ${g} × 2 = +${4 * g}, guard ${g} × 2 = +${2 * g}, each of the three rebels −${2 * g} (open guard ×2).`],
        scores: [4 * g, 2 * g, -2 * g, -2 * g, -2 * g],
        names: ["Emperor", "Guard", "Rebel", "Rebel", "Rebel"],
      };
    },
  },
};

export default content;

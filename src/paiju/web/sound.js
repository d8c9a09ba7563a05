// @ts-check
// Table sounds made in the browser with Web Audio (no sound files): your turn, a play, a
// pass, a bomb or joker play, the last seconds of the timer. Off until the person turns
// them on; the choice is kept per browser (localStorage "paiju.sound").

const KEY = "paiju.sound";
let audio = null;

/** @returns {boolean} */
export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

/** @param {boolean} on */
export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    /* storage unavailable */
  }
  if (on) context(); // a click made this choice: the browser lets the audio start now
}

function context() {
  if (!audio) {
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return null;
    audio = new Ctx();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// One note: frequency (Hz), start offset and length (s), waveform, loudness.
function tone(ac, freq, at, len, type = "sine", gain = 0.12) {
  const osc = ac.createOscillator();
  const g = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, ac.currentTime + at);
  g.gain.setValueAtTime(0.0001, ac.currentTime + at);
  g.gain.exponentialRampToValueAtTime(gain, ac.currentTime + at + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, ac.currentTime + at + len);
  osc.connect(g).connect(ac.destination);
  osc.start(ac.currentTime + at);
  osc.stop(ac.currentTime + at + len + 0.02);
}

const SOUNDS = {
  turn: (ac) => (tone(ac, 660, 0, 0.12), tone(ac, 880, 0.12, 0.18)),
  play: (ac) => tone(ac, 320, 0, 0.08, "triangle", 0.18),
  pass: (ac) => tone(ac, 200, 0, 0.1, "sine", 0.08),
  bomb: (ac) => (tone(ac, 110, 0, 0.35, "sawtooth", 0.16), tone(ac, 80, 0.05, 0.4, "square", 0.08)),
  tick: (ac) => tone(ac, 1000, 0, 0.05, "square", 0.05),
};

// Play a named sound when sounds are on; the name is recorded for tests either way.
/** @param {string} name */
export function playSound(name) {
  const w = /** @type {any} */ (window);
  w.paijuSounds = (w.paijuSounds || []).concat(name).slice(-50);
  if (!soundOn() || !SOUNDS[name]) return;
  const ac = context();
  if (!ac) return;
  try {
    SOUNDS[name](ac);
  } catch {
    /* audio unavailable */
  }
}

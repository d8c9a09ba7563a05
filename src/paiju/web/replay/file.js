// @ts-check
// A record file's way into the replay viewer: a button that opens one, a file dropped
// anywhere on the app, and the frames the hall made of it (kept in the page's memory
// only: a reload forgets them) for #/replay/file. Also the text of a replay's errors.
// Exports: replayErrorText, openRecordFile, recordFileButton, installRecordDrop, fileReplay.

import * as api from "../api.js";
import { t } from "../i18n.js";
import { h, toast } from "../ui.js";
import { reasonText } from "../table/text.js";

/** @typedef {import("../table/state.js").AppCtx} AppCtx */

// the frames of the record file last opened (a page's memory only: a reload forgets them)
/** @type {{data: any, name: string} | null} */
let lastFile = null;

/**
 * The record file last opened: its frames and name, or null.
 * @returns {{data: any, name: string} | null}
 */
export function fileReplay() {
  return lastFile;
}

/** @param {number} s */
const seatText = (s) => t("seat_n", { n: Number(s) + 1 });

/**
 * The text of a replay's error (a reason code, a missing hand, else the message).
 * @param {any} err
 * @returns {string}
 */
export function replayErrorText(err) {
  if (err && err.code) return reasonText(err.code, err.params, err.message, seatText);
  if (err && err.status === 404) return t("replay_missing");
  return String((err && err.message) || err);
}

/**
 * Read a record file, have the hall make its frames, and show them (#/replay/file).
 * @param {File} file
 * @param {AppCtx} ctx
 */
export async function openRecordFile(file, ctx) {
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    toast(reasonText("bad_record"), "error", 6000);
    return;
  }
  try {
    const data = await api.postJSON("/api/replay?seat=0", record);
    lastFile = { data, name: file.name || "" };
    ctx.navigate("#/replay/file");
  } catch (err) {
    toast(replayErrorText(err), "error", 6000);
  }
}

/**
 * A button that opens a record file (a .json from the hands list or `paiju` tools).
 * @param {AppCtx} ctx
 * @param {string} [cls]
 * @returns {HTMLElement}
 */
export function recordFileButton(ctx, cls = "small") {
  const input = /** @type {HTMLInputElement} */ (h("input", { type: "file", accept: ".json,application/json", class: "hidden", "data-testid": "record-file" }));
  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    input.value = "";
    if (file) openRecordFile(file, ctx);
  });
  const button = h("button", { class: cls, "data-testid": "open-record", title: t("replay_file_help") }, t("replay_open_file"));
  button.addEventListener("click", () => input.click());
  return h("span", { class: "record-file" }, button, input);
}

/**
 * Dropping a record file anywhere on the app opens its replay.
 * @param {AppCtx} ctx
 */
export function installRecordDrop(ctx) {
  const hasFiles = (/** @type {DragEvent} */ e) => e.dataTransfer && Array.from(e.dataTransfer.types || []).includes("Files");
  document.addEventListener("dragover", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault(); // (else the browser leaves the app to show the file)
    e.dataTransfer.dropEffect = "copy";
    document.body.classList.add("dropping");
  });
  document.addEventListener("dragleave", (e) => {
    if (!e.relatedTarget) document.body.classList.remove("dropping");
  });
  document.addEventListener("drop", (e) => {
    document.body.classList.remove("dropping");
    if (!hasFiles(e)) return;
    e.preventDefault();
    const file = e.dataTransfer.files && e.dataTransfer.files[0];
    if (file && ctx.player) openRecordFile(file, ctx); // the viewer is for a person with a name
  });
}

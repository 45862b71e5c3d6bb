// The server's JSON API (docs/json.md): one request, and a job of its workers followed to its end.
import { S } from "./state.mjs";

export async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try { response = await fetch(path, options); } catch (e) {
    return { ok: false, status: 0, record: { reason: "the server cannot be reached" } };
  }
  let record;
  try { record = await response.json(); } catch (e) { record = { reason: "HTTP " + response.status }; }
  return { ok: response.ok, status: response.status, record };
}

// A job of the server's workers, followed to its end (`show` gets each state); one at a time.
export async function job(path, body, show) {
  const first = await api("POST", path, body);
  if (!first.ok) return { error: first.record.reason };
  let record = first.record;
  if (record.record !== "job") return { result: record };
  S.job = record.id;
  while (record && !["done", "failed", "cancelled"].includes(record.state) && S.job === record.id) {
    show(record);
    const answer = await api("GET", "/api/solve/" + record.id + "?wait=1");
    if (!answer.ok) return { error: answer.record.reason };
    record = answer.record;
  }
  if (S.job === record.id) S.job = null;
  if (record.state === "done") return { result: record.result };
  return { error: record.state === "failed" ? record.reason || record.text : "cancelled" };
}

// Cancel the job in flight, if any.
export async function cancelJob() {
  const id = S.job;
  if (!id) return false;
  S.job = null;
  await api("DELETE", "/api/solve/" + id);
  return true;
}

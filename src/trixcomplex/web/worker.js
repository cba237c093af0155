// The table's host in a Web Worker: Pyodide runs trixcomplex (loaded from the wheels beside
// this file, never from another origin) and its trixcomplex.web.local lobby answers the page's
// transport (static/transport.js) with the server's own messages. No rule is written here:
// this file only carries text between the page and Python.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (path) => new URL(path, self.location.href).href;

async function start() {
  const manifest = await (await fetch(here("web.json"))).json();
  const pyodide = await loadPyodide({ indexURL: here("pyodide/") });
  await pyodide.loadPackage(manifest.wheels.map((name) => here("wheels/" + name)));
  const local = pyodide.pyimport("trixcomplex.web.local");
  const send = (conn, text) => self.postMessage({ type: "message", conn, text });
  return local.LocalLobby(send);
}

const ready = start();
ready.then(
  () => self.postMessage({ type: "ready" }),
  (error) => self.postMessage({ type: "failed", message: String(error) }),
);

self.onmessage = async (event) => {
  const lobby = await ready;
  const m = event.data;
  if (m.type === "fetch") {
    const reply = JSON.parse(lobby.request(m.method, m.path, m.body));
    self.postMessage({ type: "reply", id: m.id, status: reply.status, body: JSON.stringify(reply.body) });
  } else if (m.type === "open") {
    self.postMessage({ type: "opened", conn: m.conn });
    lobby.open(m.conn, m.table, m.locale || "");
  } else if (m.type === "send") {
    lobby.receive(m.conn, m.text);
  } else if (m.type === "close") {
    lobby.close(m.conn);
  }
};

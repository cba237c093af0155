// The page's transport: how app.js reaches its table. Served by `trixcomplex serve` it is the
// server (fetch and a WebSocket); in a folder `trixcomplex web build` wrote (its page says
// <meta name="trixcomplex-transport" content="worker">) it is the engine in a Web Worker
// (worker.js), which answers the same requests with the same messages (the same schemas).
// Either way app.js calls transport.fetch(path, init) and transport.socket(table, locale)
// (locale: the language of the connection's refusals until its hello names one), which
// returns something with a WebSocket's send, close, readyState, onopen, onmessage, onclose.
"use strict";

const transport = (() => {
  const meta = document.querySelector('meta[name="trixcomplex-transport"]');
  if (!meta || meta.content !== "worker") {
    return {
      kind: "server",
      fetch: (path, init) => fetch(path, init),
      socket: (table, locale) => new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") +
        location.host + "/ws/" + table + (locale ? "?locale=" + encodeURIComponent(locale) : "")),
    };
  }
  const worker = new Worker("worker.js", { type: "module" });
  const replies = new Map();
  const sockets = new Map();
  let next = 0;
  worker.onmessage = (event) => {
    const m = event.data;
    if (m.type === "reply") {
      const resolve = replies.get(m.id);
      replies.delete(m.id);
      resolve(new Response(m.body, { status: m.status, headers: { "Content-Type": "application/json" } }));
    } else if (m.type === "opened" || m.type === "message") {
      const socket = sockets.get(m.conn);
      if (!socket) return;
      if (m.type === "opened") { socket.readyState = 1; if (socket.onopen) socket.onopen({}); }
      else if (socket.onmessage) socket.onmessage({ data: m.text });
    } else if (m.type === "failed") {
      console.error("the engine could not start: " + m.message);
    }
  };
  return {
    kind: "worker",
    fetch: (path, init) => new Promise((resolve) => {
      const id = next++;
      replies.set(id, resolve);
      worker.postMessage({ type: "fetch", id, path, method: (init && init.method) || "GET",
        body: (init && init.body) || null });
    }),
    socket: (table, locale) => {
      const conn = next++;
      const socket = {
        readyState: 0, onopen: null, onmessage: null, onclose: null, onerror: null,
        send: (text) => worker.postMessage({ type: "send", conn, text }),
        close: () => { socket.readyState = 3; sockets.delete(conn); worker.postMessage({ type: "close", conn }); },
      };
      sockets.set(conn, socket);
      worker.postMessage({ type: "open", conn, table, locale: locale || "" });
      return socket;
    },
  };
})();

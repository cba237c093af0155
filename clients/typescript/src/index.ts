export * from "./protocol.js";
export * from "./client.js";
export * from "./local.js";

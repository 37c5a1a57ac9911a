// The stack view: the project's stacks, and one stack's dependency graph and events
// followed live through the API's watch stream (server-sent events read with fetch, so
// the Keystone token travels in a header as with any API call).
"use strict";

const LIST_REFRESH_MS = 5000;
const RECONNECT_MS = 5000;
const MAX_EVENTS = 300;
const NODE = { width: 160, height: 44, gapX: 20, gapY: 50, margin: 16, perRow: 8 };
const SVG_NS = "http://www.w3.org/2000/svg";

const tenant = location.pathname.split("/").filter(Boolean)[1] || "admin";
const api = `${location.origin}/v1/${encodeURIComponent(tenant)}`;
const expanded = new Set();  // owners of nested stacks whose members are shown
let listTimer = null;
let watching = null;  // {name, abort} of the stack on screen
let lastProgress = null;

function headers() {
  const token = sessionStorage.getItem("keel-token");
  return token ? { "X-Auth-Token": token, Accept: "application/json" } : { Accept: "application/json" };
}

function classify(status, stackAction) {
  if (status.endsWith("_FAILED")) return "failed";
  if (status.endsWith("_IN_PROGRESS")) return "in-progress";
  if (stackAction === "DELETE") return status === "DELETE_COMPLETE" ? "done" : "pending";
  if (status.endsWith("_COMPLETE") && !status.startsWith("INIT")) return "done";
  return "pending";
}

function stackIdOf(resource) {
  const link = (resource.links || []).find((l) => l.rel === "stack");
  return link ? link.href.replace(/\/$/, "").split("/").pop() : "";
}

async function getJson(path) {
  const response = await fetch(api + path, { headers: headers() });
  if (!response.ok) {
    const text = await response.text();
    throw new Error(`${response.status}: ${text.slice(0, 300)}`);
  }
  return response.json();
}

// The stack list

async function showList() {
  clearTimeout(listTimer);
  document.getElementById("list-view").hidden = false;
  document.getElementById("stack-view").hidden = true;
  const body = document.querySelector("#stacks tbody");
  const error = document.getElementById("list-error");
  try {
    const { stacks } = await getJson("/stacks?sort_keys=created_at&sort_dir=desc");
    error.textContent = "";
    body.replaceChildren(...stacks.map((stack) => {
      const row = document.createElement("tr");
      row.dataset.name = stack.stack_name;
      for (const value of [stack.stack_name, stack.stack_status, stack.creation_time, stack.updated_time || ""]) {
        const cell = document.createElement("td");
        cell.textContent = value;
        row.appendChild(cell);
      }
      row.children[1].className = "status " + classify(stack.stack_status, "");
      row.addEventListener("click", () => { location.hash = "stack=" + encodeURIComponent(stack.stack_name); });
      return row;
    }));
  } catch (failure) {
    error.textContent = String(failure.message);
  }
  if (!location.hash.startsWith("#stack=")) listTimer = setTimeout(showList, LIST_REFRESH_MS);
}

// One stack, live

async function showStack(name) {
  clearTimeout(listTimer);
  document.getElementById("list-view").hidden = true;
  document.getElementById("stack-view").hidden = false;
  document.getElementById("stack-name").textContent = name;
  document.getElementById("events").replaceChildren();
  lastProgress = null;
  const abort = new AbortController();
  const mine = { name, abort };
  watching = mine;
  while (watching === mine) {
    try {
      const { stack } = await getJson(`/stacks/${encodeURIComponent(name)}`);
      await follow(`/stacks/${encodeURIComponent(stack.stack_name)}/${stack.id}/watch`, abort.signal);
    } catch (failure) {
      if (abort.signal.aborted) return;
      document.getElementById("stack-reason").textContent = String(failure.message);
    }
    // The stream ends with the stack's action; look again later for the next one.
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}

async function follow(path, signal) {
  const response = await fetch(api + path, { headers: { ...headers(), Accept: "text/event-stream" }, signal });
  if (!response.ok) throw new Error(`${response.status}: ${(await response.text()).slice(0, 300)}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join("\n");
      if (data) render(JSON.parse(data));
    }
  }
}

function render(progress) {
  lastProgress = progress;
  const { stack, resources, events } = progress;
  const action = stack.stack_status.split("_")[0];
  const status = document.getElementById("stack-status");
  status.textContent = stack.stack_status;
  status.className = "status " + classify(stack.stack_status, "");
  document.getElementById("stack-reason").textContent =
    stack.stack_status.endsWith("_FAILED") ? stack.stack_status_reason || "" : "";
  const counts = { done: 0, "in-progress": 0, failed: 0, pending: 0 };
  for (const resource of resources) counts[classify(resource.resource_status, action)] += 1;
  document.getElementById("counts").textContent =
    `${counts.done}/${resources.length} done, ${counts["in-progress"]} in progress, ${counts.failed} failed`;
  drawGraph(resources, action);
  const failures = resources.filter((r) => r.resource_status.endsWith("_FAILED"));
  document.getElementById("failures").replaceChildren(...failures.map((r) => {
    const item = document.createElement("li");
    item.textContent = `${r.resource_name}: ${r.resource_status_reason}`;
    return item;
  }));
  const list = document.getElementById("events");
  for (const event of events) {
    const item = document.createElement("li");
    item.className = classify(event.resource_status, "");
    item.textContent = `${event.event_time} ${event.resource_name} ${event.resource_status} ${event.resource_status_reason || ""}`;
    list.appendChild(item);
  }
  while (list.children.length > MAX_EVENTS) list.removeChild(list.firstChild);
}

// The graph: a node a resource, an edge from a requirement to what requires it, and
// from a nested stack's members to the resource that owns the stack.

function graphOf(resources) {
  const nodes = resources.map((r) => ({ ...r, key: `${stackIdOf(r)}/${r.resource_name}`, stackId: stackIdOf(r) }));
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const owners = new Map();
  for (const node of nodes) {
    if (!node.parent_resource || owners.has(node.stackId)) continue;
    const candidates = nodes.filter((n) => n.resource_name === node.parent_resource && n.stackId !== node.stackId);
    if (candidates.length === 1) owners.set(node.stackId, candidates[0]);
  }
  for (const owner of owners.values()) owner.ownsNested = true;
  const hidden = (node) => {
    for (let owner = owners.get(node.stackId); owner; owner = owners.get(owner.stackId)) {
      if (!expanded.has(owner.key)) return true;
    }
    return false;
  };
  const shown = nodes.filter((n) => !hidden(n));
  const shownKeys = new Set(shown.map((n) => n.key));
  const edges = [];
  for (const node of shown) {
    for (const dependent of node.required_by || []) {
      const key = `${node.stackId}/${dependent}`;
      if (shownKeys.has(key)) edges.push([node.key, key]);
    }
    const owner = owners.get(node.stackId);
    if (owner && shownKeys.has(owner.key)) edges.push([node.key, owner.key]);
  }
  return { nodes: shown, edges, byKey };
}

function layers(nodes, edges) {
  const requirements = new Map();
  for (const [required, dependent] of edges) {
    if (!requirements.has(dependent)) requirements.set(dependent, []);
    requirements.get(dependent).push(required);
  }
  const depth = new Map();
  const depthOf = (key, seen) => {
    if (depth.has(key)) return depth.get(key);
    let level = 0;
    for (const required of requirements.get(key) || []) {
      if (!seen.has(required)) level = Math.max(level, 1 + depthOf(required, new Set([...seen, key])));
    }
    depth.set(key, level);
    return level;
  };
  const rows = [];
  for (const node of [...nodes].sort((a, b) => a.key.localeCompare(b.key))) {
    const level = depthOf(node.key, new Set());
    while (rows.length <= level) rows.push([]);
    rows[level].push(node);
  }
  // A wide layer wraps onto several rows so the page stays readable.
  return rows.flatMap((row) => {
    const wrapped = [];
    for (let i = 0; i < row.length; i += NODE.perRow) wrapped.push(row.slice(i, i + NODE.perRow));
    return wrapped;
  });
}

function svgElement(name, attributes, text) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

function drawGraph(resources, action) {
  const { nodes, edges } = graphOf(resources);
  const rows = layers(nodes, edges);
  const columns = Math.max(1, ...rows.map((row) => row.length));
  const width = 2 * NODE.margin + columns * NODE.width + (columns - 1) * NODE.gapX;
  const height = 2 * NODE.margin + rows.length * NODE.height + Math.max(rows.length - 1, 0) * NODE.gapY;
  const svg = svgElement("svg", { width, height, viewBox: `0 0 ${width} ${height}` });
  const centres = new Map();
  const boxes = [];
  rows.forEach((row, index) => {
    const y = height - NODE.margin - (index + 1) * NODE.height - index * NODE.gapY;
    const offset = (width - row.length * NODE.width - (row.length - 1) * NODE.gapX) / 2;
    row.forEach((node, column) => {
      const x = offset + column * (NODE.width + NODE.gapX);
      centres.set(node.key, [x + NODE.width / 2, y]);
      const state = classify(node.resource_status, action);
      const group = svgElement("g", { class: `node ${state}${node.ownsNested ? " nested-owner" : ""}`, "data-name": node.resource_name });
      group.appendChild(svgElement("title", {}, `${node.resource_name} (${node.resource_type}) ${node.resource_status} ${node.resource_status_reason || ""}`));
      group.appendChild(svgElement("rect", { x, y, width: NODE.width, height: NODE.height, rx: 6 }));
      const label = (node.ownsNested ? (expanded.has(node.key) ? "− " : "+ ") : "") + node.resource_name;
      group.appendChild(svgElement("text", { x: x + 8, y: y + 16 }, label));
      group.appendChild(svgElement("text", { x: x + 8, y: y + 31 }, node.resource_status));
      if (state === "failed") {
        // The message's last part ("Type: resources.name: what went wrong") fits a node.
        const reason = (node.resource_status_reason || "").split(": ").pop();
        group.appendChild(svgElement("text", { x: x + 8, y: y + 41, class: "reason" }, reason.slice(0, 30)));
      }
      if (node.ownsNested) {
        group.addEventListener("click", () => {
          if (expanded.has(node.key)) expanded.delete(node.key); else expanded.add(node.key);
          if (lastProgress) render({ ...lastProgress, events: [] });
        });
      }
      boxes.push(group);
    });
  });
  for (const [required, dependent] of edges) {
    const [x1, y1] = centres.get(required);
    const [x2, y2] = centres.get(dependent);
    svg.appendChild(svgElement("line", { x1, y1, x2, y2: y2 + NODE.height, class: "edge" }));
  }
  boxes.forEach((box) => svg.appendChild(box));
  document.getElementById("graph").replaceChildren(svg);
}

// Navigation

function route() {
  if (watching) { watching.abort.abort(); watching = null; }
  const match = location.hash.match(/^#stack=(.+)$/);
  if (match) showStack(decodeURIComponent(match[1])); else showList();
}

document.getElementById("project").textContent = `project ${tenant}`;
document.getElementById("token").value = sessionStorage.getItem("keel-token") || "";
document.getElementById("login").addEventListener("submit", (submitted) => {
  submitted.preventDefault();
  sessionStorage.setItem("keel-token", document.getElementById("token").value.trim());
  route();
});
window.addEventListener("hashchange", route);
route();

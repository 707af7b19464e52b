/* Switchboard web chat widget: <script src="{hooks_url}/webchat/widget.js" data-flow-id="FLOW_UUID"></script>
   Optional: data-session (a session your server created with POST /webchat/session and its API key: the lead's chat),
   or data-phone, data-first-name, data-last-name (kept on an anonymous session). No dependencies. */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script) return;
  var flowId = script.getAttribute('data-flow-id');
  var origin = new URL(script.src, location.href).origin;
  var wsOrigin = origin.replace(/^http/, 'ws');
  var storeKey = 'switchboard-chat:' + flowId;
  var sessionId = null;
  try {
    sessionId = localStorage.getItem(storeKey);
  } catch {
    /* storage blocked: no resume */
  }
  var given = script.getAttribute('data-session');
  var fresh = !!given && given !== sessionId;
  if (fresh) sessionId = given;
  var startedOver = false;
  var lastId = null;
  var ended = false;
  var socket = null;
  var beat = null;
  var retry = 0;
  var shown = {};

  var css =
    '#sb-chat{position:fixed;right:16px;bottom:16px;width:320px;height:440px;display:flex;flex-direction:column;' +
    'font:14px system-ui,sans-serif;background:#fff;border:1px solid #ccc;border-radius:10px;box-shadow:0 4px 16px rgba(0,0,0,.15)}' +
    '#sb-chat header{display:flex;align-items:center;gap:8px;padding:8px 10px;border-bottom:1px solid #eee;font-weight:600}' +
    '#sb-chat header img{width:28px;height:28px;border-radius:50%}' +
    '#sb-chat .sb-log{flex:1;overflow-y:auto;padding:8px;display:flex;flex-direction:column;gap:6px}' +
    '#sb-chat .sb-msg{max-width:80%;padding:6px 9px;border-radius:8px;white-space:pre-wrap;word-wrap:break-word}' +
    '#sb-chat .sb-bot{background:#f0f0f3;align-self:flex-start}#sb-chat .sb-user{background:#2b6cff;color:#fff;align-self:flex-end}' +
    '#sb-chat .sb-typing{color:#888;font-style:italic;padding:0 10px;min-height:18px}' +
    '#sb-chat form{display:flex;border-top:1px solid #eee}#sb-chat input{flex:1;border:0;padding:10px;font:inherit}' +
    '#sb-chat button{border:0;background:none;padding:0 12px;color:#2b6cff;font:inherit;cursor:pointer}';
  var style = document.createElement('style');
  // A page whose Content-Security-Policy allows styles by nonce (the demo page) gives its nonce to this script.
  if (script.nonce) style.nonce = script.nonce;
  style.textContent = css;
  document.head.appendChild(style);

  var root = document.createElement('div');
  root.id = 'sb-chat';
  root.innerHTML =
    '<header><img alt="" hidden><span class="sb-name">Chat</span></header><div class="sb-log" role="log" aria-live="polite"></div>' +
    '<div class="sb-typing" aria-live="polite"></div><form><input name="text" autocomplete="off" placeholder="Type a message…" aria-label="Message"><button type="submit">Send</button></form>';
  document.body.appendChild(root);
  var log = root.querySelector('.sb-log');
  var typing = root.querySelector('.sb-typing');
  var input = root.querySelector('input');
  var form = root.querySelector('form');

  function add(kind, id, text) {
    if (id && shown[id]) return;
    if (id) shown[id] = true;
    var div = document.createElement('div');
    div.className = 'sb-msg sb-' + kind;
    div.textContent = text;
    log.appendChild(div);
    log.scrollTop = log.scrollHeight;
  }

  function send(frame) {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify(frame));
  }

  function connect(reconnect) {
    var url =
      wsOrigin +
      '/webchat/flow/' +
      encodeURIComponent(flowId) +
      '/session/' +
      (sessionId || 'null') +
      '/r/' +
      reconnect +
      (reconnect && lastId ? '?last=' + encodeURIComponent(lastId) : '');
    socket = new WebSocket(url);
    socket.onmessage = function (ev) {
      var f;
      try {
        f = JSON.parse(ev.data);
      } catch {
        return;
      }
      retry = 0;
      if (f.type === 'session') {
        sessionId = f.session_id;
        try {
          localStorage.setItem(storeKey, sessionId);
        } catch {
          /* no resume */
        }
      } else if (f.type === 'chatowner') {
        root.querySelector('.sb-name').textContent = f.name;
        var img = root.querySelector('header img');
        if (f.profilepic) {
          img.src = f.profilepic;
          img.hidden = false;
        }
      } else if (f.type === 'message') {
        typing.textContent = '';
        lastId = f.id;
        add('bot', f.id, f.content);
      } else if (f.type === 'recv') {
        lastId = f.id;
        add('user', f.id, f.content);
      } else if (f.type === 'end') {
        ended = true;
        input.disabled = true;
        input.placeholder = 'The conversation has ended';
      } else if (f.type === 'error') {
        typing.textContent = f.message;
      }
    };
    socket.onopen = function () {
      clearInterval(beat);
      beat = setInterval(function () {
        var d = new Date();
        var off = -d.getTimezoneOffset();
        var pad = function (n) {
          return (n < 10 ? '0' : '') + n;
        };
        var tz = (off >= 0 ? '+' : '-') + pad(Math.floor(Math.abs(off) / 60)) + ':' + pad(Math.abs(off) % 60);
        send({ type: 'heartbeat', message: { stamp: d.toISOString().slice(0, 19), tz: tz } });
      }, 15000);
    };
    socket.onclose = function (ev) {
      clearInterval(beat);
      // 1000: ended; 44xx: a session this page cannot use (start over next load); else a drop: reconnect and catch up.
      if (ended || ev.code === 1000) return;
      if (ev.code >= 4400 && ev.code < 4500) {
        try {
          localStorage.removeItem(storeKey);
        } catch {
          /* nothing stored */
        }
        // An anonymous conversation is stored once the visitor writes: one left before that is unknown. Start anew, once.
        if (ev.code === 4404 && !startedOver && !given) {
          startedOver = true;
          sessionId = null;
          lastId = null;
          shown = {};
          log.textContent = '';
          connect(false);
        }
        return;
      }
      retry = Math.min(retry + 1, 6);
      setTimeout(
        function () {
          connect(true);
        },
        250 * Math.pow(2, retry - 1),
      );
    };
  }

  var lastTyping = 0;
  input.addEventListener('input', function () {
    if (Date.now() - lastTyping > 3000) {
      lastTyping = Date.now();
      send({ type: 'typing', message: true });
    }
  });
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    var text = input.value.trim();
    if (!text || ended) return;
    input.value = '';
    send({ type: 'message', message: text });
    typing.textContent = '…';
  });

  var lead = { phone: script.getAttribute('data-phone'), first_name: script.getAttribute('data-first-name'), last_name: script.getAttribute('data-last-name') };
  if (!sessionId && lead.phone) {
    var record = {};
    for (var k in lead) if (lead[k]) record[k] = lead[k];
    fetch(origin + '/webchat/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ record: record, flow_id: flowId }),
    })
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(
        function (s) {
          if (s) sessionId = s.session;
          connect(false);
        },
        function () {
          connect(false);
        },
      );
  } else {
    // A stored session after a reload: r/true without ?last= replays the whole conversation.
    connect(!!sessionId && !fresh);
  }
})();

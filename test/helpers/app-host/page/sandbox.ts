// The sandbox proxy, as ext-apps' examples/basic-host (src/sandbox.ts) builds it: served from an
// origin other than the host's, it checks who embeds it, makes an inner iframe for the view's HTML
// and relays messages between the host (its parent) and the view (the inner frame), each way only
// from the window and origin expected. Its CSP comes as an HTTP header (set by the harness server
// from ?csp=), which the view's HTML cannot change.
if (window.self === window.top) throw new Error('the sandbox proxy runs only inside the host page');
if (!/^http:\/\/(localhost|127\.0\.0\.1)(:|\/|$)/.test(document.referrer)) throw new Error(`embedded by ${document.referrer || 'nobody'}`);

const hostOrigin = new URL(document.referrer).origin;
const ownOrigin = location.origin;

// The host's window must be out of reach: a sandbox that can touch it isolates nothing.
let escaped = false;
try {
  void window.top!.document.title;
  escaped = true;
} catch {
  // SecurityError: as it should be.
}
if (escaped) throw new Error('the sandbox can reach the host page: its iframe is not isolated');

const inner = document.createElement('iframe');
inner.style.cssText = 'width:100%;height:100%;border:none';
inner.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
document.body.append(inner);

window.addEventListener('message', (event) => {
  if (event.source === window.parent) {
    if (event.origin !== hostOrigin) return;
    const data = event.data as { method?: string; params?: { html?: string; sandbox?: string; permissions?: Record<string, boolean> } };
    if (data?.method === 'ui/notifications/sandbox-resource-ready') {
      const { html, sandbox, permissions } = data.params ?? {};
      if (typeof sandbox === 'string') inner.setAttribute('sandbox', sandbox);
      const allow = Object.entries(permissions ?? {})
        .filter(([, on]) => on)
        .map(([name]) => (name === 'clipboardWrite' ? 'clipboard-write' : name));
      if (allow.length > 0) inner.setAttribute('allow', allow.join('; '));
      if (typeof html === 'string') {
        // document.write keeps the sandbox's origin (srcdoc would make it opaque), as basic-host does.
        const doc = inner.contentDocument;
        if (doc) {
          doc.open();
          doc.write(html);
          doc.close();
        } else inner.srcdoc = html;
      }
      return;
    }
    inner.contentWindow?.postMessage(event.data, '*');
  } else if (event.source === inner.contentWindow) {
    if (event.origin !== ownOrigin) return;
    window.parent.postMessage(event.data, hostOrigin);
  }
});

window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, hostOrigin);

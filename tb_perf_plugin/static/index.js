var v=class extends Error{constructor(t,n){super(n);this.code=t}code};function E(e){return typeof e=="object"&&e!==null}function fe(e){return E(e)&&E(e.progress)?e.progress:null}function he(e,r){let t=E(r)?r.error:void 0;return E(t)&&typeof t.message=="string"?new v(String(t.code??"error"),t.message):new v("http_error",`The server answered HTTP ${e}.`)}function be(e,r){return new Promise((t,n)=>{let o=setTimeout(t,e);r.addEventListener("abort",()=>{clearTimeout(o),n(r.reason)},{once:!0})})}async function ge(e,r){try{return await fetch(e,{signal:r,headers:{Accept:"application/json"}})}catch(t){throw r.aborted?t:new v("unreachable","The TensorBoard server did not answer. Is it still running?")}}async function j(e,r,t){for(;;){let n=await ge(e,r),o=await n.json().catch(()=>null),s=n.status===202?fe(o):null;if(s){t?.(s),await be(500,r);continue}if(!n.ok)throw he(n.status,o);if(o===null)throw new v("bad_response","The server sent a response that is not JSON.");return o}}function W(e){return j("./runs",e)}function z(e,r,t,n){let o=new URLSearchParams({run:e});return r!==null&&o.set("rank",String(r)),j(`./summary?${o}`,t,n)}function J(e,r){for(let[t,n]of Object.entries(r))n===void 0||n===!1||e.setAttribute(t,n===!0?"":String(n))}function a(e,r={},...t){let n=document.createElement(e);J(n,r);for(let o of t)o!=null&&o!==!1&&n.append(o);return n}var we="http://www.w3.org/2000/svg";function h(e,r={},...t){let n=document.createElementNS(we,e);J(n,r);for(let o of t)o!=null&&o!==!1&&n.append(o);return n}var xe=new Intl.NumberFormat("en-US");function C(e){let r=Math.abs(e),t=r>=100?0:r>=10?1:2;return new Intl.NumberFormat("en-US",{minimumFractionDigits:t,maximumFractionDigits:t}).format(e)}function F(e){if(e==null||!Number.isFinite(e))return"—";let r=Math.abs(e);return r>=1e9?`${C(e/1e9)} s`:r>=1e6?`${C(e/1e6)} ms`:r>=1e3?`${C(e/1e3)} µs`:`${Math.round(e)} ns`}var ye=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]];function Y(e){let r=Math.max(0,...e.map(Math.abs)),[t,n]=ye.find(([i])=>r>=i)??[1,"ns"],o=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/t:1,s=Math.min(3,Math.max(0,-Math.floor(Math.log10(o))));return i=>`${(i/t).toFixed(s)} ${n}`}function L(e){return e==null?"—":xe.format(e)}function q(e){return e==null||!Number.isFinite(e)?"—":e>0&&e<.05?"<0.1 %":`${e.toFixed(1)} %`}function H(e){let r=["B","KB","MB","GB","TB"],t=e,n=0;for(;t>=1e3&&n<r.length-1;)t/=1e3,n+=1;return n===0?`${e} B`:`${C(t)} ${r[n]}`}function T(){return new URLSearchParams(location.hash.slice(1))}function A(e){let r=T();for(let[n,o]of Object.entries(e))o===null?r.delete(n):r.set(n,o);let t=new URL(location.href);t.hash=r.toString(),history.replaceState(history.state,"",t.href)}var p={top:10,right:16,bottom:38,left:68},ve=90,ke=40;function Q(e,r,t,n){let s=(r-e||Math.abs(r)||1)/Math.max(1,t),i=10**Math.floor(Math.log10(s)),u=[1,2,5,10].map(l=>l*i).find(l=>l>=s)??10*i;n&&(u=Math.max(1,Math.round(u)));let x=Math.floor(e/u)*u,f=Math.max(Math.ceil(r/u)*u,x+u),d=[];for(let l=0;x+l*u<=f+u/2;l+=1)d.push(Number((x+l*u).toPrecision(12)));return{min:x,max:f,ticks:d}}function te(e,r){let t=0,n=e.length;for(;t<n;){let o=t+n>>1;(e[o]??1/0)<r?t=o+1:n=o}return t}function Se(e,r){let t=null;for(let{x:n}of e){let o=te(n,r);for(let s of[n[o-1],n[o]])s!==void 0&&(t===null||Math.abs(s-r)<Math.abs(t-r))&&(t=s)}return t}function Z(e){let r=1/0,t=-1/0;for(let n of e)n<r&&(r=n),n>t&&(t=n);return[r,t]}function*ee(e,r){for(let t of e)yield*t[r]}function Re(e,r,t){let{series:n,height:o}=e,s=r-p.left-p.right,i=o-p.top-p.bottom,[u,x]=Z(ee(n,"x")),[,f]=Z(ee(n,"y")),d=Q(u,x,s/ve,!0),l=Q(0,f,i/ke,!1),m=c=>p.left+(c-d.min)/(d.max-d.min)*s,g=c=>p.top+(1-(c-l.min)/(l.max-l.min))*i,S=p.top+i,k=h("svg",{width:r,height:o,class:"chart-svg",role:"img"}),pe=e.yTickFormat(l.ticks);for(let c of l.ticks){let y=g(c).toFixed(1);k.append(h("line",{class:"chart-grid",x1:p.left,x2:r-p.right,y1:y,y2:y}),h("text",{class:"chart-tick",x:p.left-6,y,"text-anchor":"end","dominant-baseline":"middle"},pe(c)))}for(let c of d.ticks)k.append(h("text",{class:"chart-tick",x:m(c).toFixed(1),y:S+16,"text-anchor":"middle"},e.formatX(c)));k.append(h("line",{class:"chart-axis",x1:p.left,x2:r-p.right,y1:S,y2:S}),h("text",{class:"chart-label",x:p.left+s/2,y:o-4,"text-anchor":"middle"},e.xLabel));for(let c of n){let y=c.x.map(($,b)=>`${m($).toFixed(1)},${g(c.y[b]??0).toFixed(1)}`);k.append(y.length===1?h("circle",{cx:m(c.x[0]??0),cy:g(c.y[0]??0),r:3,fill:c.color,"data-series":c.label}):h("polyline",{class:"chart-line",points:y.join(" "),stroke:c.color,"data-series":c.label}))}let _=h("line",{class:"chart-guide",y1:p.top,y2:S,visibility:"hidden"}),M=h("g"),P=h("rect",{x:p.left,y:p.top,width:s,height:i,class:"chart-hover"});k.append(_,M,P);let K=()=>{_.setAttribute("visibility","hidden"),M.replaceChildren(),t.hidden=!0};return P.addEventListener("pointerleave",K),P.addEventListener("pointermove",c=>{let y=k.getBoundingClientRect().left,$=d.min+(c.clientX-y-p.left)/s*(d.max-d.min),b=Se(n,$);if(b===null)return K();let G=[];M.replaceChildren();for(let R of n){let X=te(R.x,b),O=R.y[X];R.x[X]!==b||O===void 0||(M.append(h("circle",{cx:m(b),cy:g(O),r:3.5,fill:R.color,class:"chart-marker"})),G.push(a("div",{class:"tooltip-row"},a("span",{class:"swatch",style:`background:${R.color}`}),`${R.label}: ${e.formatY(O)}`)))}_.setAttribute("x1",m(b).toFixed(1)),_.setAttribute("x2",m(b).toFixed(1)),_.setAttribute("visibility","visible"),t.replaceChildren(a("div",{class:"tooltip-title"},`${e.xLabel} ${e.formatX(b)}`),...G),t.hidden=!1;let I=12,me=m(b)+I+t.offsetWidth>r;t.style.left=`${me?m(b)-I-t.offsetWidth:m(b)+I}px`,t.style.top=`${p.top}px`}),k}function re(e){let r=a("div",{class:"chart-tooltip",role:"tooltip","data-testid":`${e.testId}-tooltip`});r.hidden=!0;let t=a("div",{class:"chart-plot"},r),n=a("ul",{class:"chart-legend"},...e.series.map(s=>a("li",{},a("span",{class:"swatch",style:`background:${s.color}`}),s.label))),o=0;return new ResizeObserver(()=>{let s=t.clientWidth;s===0||s===o||(o=s,t.replaceChildren(Re(e,s,r),r))}).observe(t),a("figure",{class:"chart","data-testid":e.testId},t,n)}var _e={asc:"ascending",desc:"descending"},Te={asc:" ▲",desc:" ▼"},Me={asc:"desc",desc:"asc"};function Ee(e,r){return typeof e=="number"&&typeof r=="number"?e-r:String(e).localeCompare(String(r))}function Ce(e,r,t){let n=t==="asc"?1:-1;return[...e].sort((o,s)=>{let i=r.value(o),u=r.value(s);return i===null||u===null?i===u?0:i===null?1:-1:n*Ee(i,u)})}function Le(e){return e.numeric?"desc":"asc"}function D(e){let{columns:r,testId:t}=e,n=e.sort,o=a("table",{class:"data-table","data-testid":t}),s=a("tr"),i=a("tbody");o.append(a("thead",{},s),i);let u=()=>{s.replaceChildren(...r.map(f=>{let d=n?.key===f.key?n.direction:void 0,l=a("th",{class:f.numeric?"numeric":void 0,title:f.title,"aria-sort":d&&_e[d],"data-column":f.key});if(!n)return l.append(f.label),l;let m=d?Te[d]:"",g=a("button",{type:"button",class:"sort-button"},f.label+m);return g.addEventListener("click",()=>{let S=d===void 0?Le(f):Me[d];n={key:f.key,direction:S},e.onSortChange?.(n),u(),x()}),l.append(g),l}))},x=()=>{let f=n&&r.find(l=>l.key===n?.key),d=n&&f?Ce(e.rows,f,n.direction):e.rows;i.replaceChildren(...d.map(l=>a("tr",{"data-testid":e.rowTestId,"data-name":e.rowName(l),class:e.rowClass?.(l)},...r.map(m=>{let g=m.value(l);return a("td",{class:m.numeric?"numeric":void 0,"data-column":m.key,"data-value":g===null?void 0:String(g)},m.format?m.format(l):String(g??"—"))}))))};return u(),x(),o}function B(e){document.documentElement.dataset.theme=e?"dark":"light"}function Ae(){if(window.parent===window)return null;try{return window.parent.document.body}catch{return null}}function oe(){let e=Ae();if(e){let t=()=>B(e.classList.contains("dark-mode"));t(),new MutationObserver(t).observe(e,{attributes:!0,attributeFilter:["class"]});return}let r=window.matchMedia("(prefers-color-scheme: dark)");B(r.matches),r.addEventListener("change",t=>B(t.matches))}var ne=["#4e79a7","#f28e2b","#e15759","#76b7b2","#59a14f","#edc948","#b07aa1","#ff9da7","#9c755f","#bab0ac"];function ae(e){return ne[Math.max(0,e)%ne.length]??"#888"}var se={key:"total_ns",direction:"desc"},w=(e,r,t,n)=>({key:e,label:r,numeric:!0,value:t,format:o=>F(t(o)),...n===void 0?{}:{title:n}}),Ne=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"host",label:"host",numeric:!1,value:e=>e.host},{key:"pid",label:"pid",numeric:!0,value:e=>e.pid,format:e=>String(e.pid)},{key:"status",label:"status",numeric:!1,value:e=>e.status},{key:"steps",label:"steps",numeric:!0,value:e=>e.steps,format:e=>L(e.steps)},w("mean","mean step",e=>e.step_time_ns?.mean??null),w("p50","p50 step",e=>e.step_time_ns?.p50??null),w("p95","p95 step",e=>e.step_time_ns?.p95??null),w("max","max step",e=>e.step_time_ns?.max??null)];function Pe(e){let r=[{key:"name",label:"name",numeric:!1,value:t=>t.name},{key:"calls",label:"calls",numeric:!0,value:t=>t.calls,format:t=>L(t.calls)},w("total_ns","total",t=>t.total_ns,"Sum of the span's durations"),w("self_ns","self",t=>t.self_ns,"Total minus the time of direct child spans"),w("mean_ns","mean",t=>t.mean_ns),w("p50_ns","p50",t=>t.p50_ns),w("p95_ns","p95",t=>t.p95_ns),{key:"pct_of_step",label:"% of step",title:"Total as a share of all step time of the selected ranks (can exceed 100 % for spans outside steps)",numeric:!0,value:t=>t.pct_of_step,format:t=>q(t.pct_of_step)}];return e&&r.push(w("gpu_total_ns","GPU total",n=>n.gpu_total_ns,"Sum of the spans' CUDA-event durations")),r}function $e(e){let r=T(),t=r.get("sort"),n=r.get("dir");return!e.some(o=>o.key===t)||n!=="asc"&&n!=="desc"?se:{key:t??se.key,direction:n}}function U(e,...r){return a("section",{class:"panel"},a("h2",{},e),...r)}function Ie(e){return e.length===0?null:a("section",{class:"warnings","data-testid":"warnings",role:"status"},a("h2",{},e.length===1?"1 warning while reading this run":`${e.length} warnings while reading this run`),a("ul",{},...e.map(r=>a("li",{},r))))}function Oe(e){let r=e.step_series.filter(i=>i.steps.length>0);if(r.length===0)return a("p",{class:"muted"},"No completed steps yet.");let t=e.ranks.map(i=>i.rank),n=Math.max(...r.map(i=>i.bucket)),o=re({series:r.map(i=>({label:`rank ${i.rank}`,color:ae(t.indexOf(i.rank)),x:i.steps,y:i.time_ns})),height:260,xLabel:"step",formatX:i=>String(i),formatY:F,yTickFormat:Y,testId:"step-chart"}),s=n>1?a("p",{class:"muted"},`Each point is the mean of ${n} consecutive steps.`):null;return a("div",{},o,s)}function Fe(e){if(e.spans.length===0)return a("p",{class:"muted"},"No timer spans in this run. Wrap code in MyTimer spans to see where step time goes.");let r=Pe(e.spans.some(o=>o.gpu_total_ns!==null)),t=D({columns:r,rows:e.spans,testId:"span-table",rowTestId:"span-row",rowName:o=>o.name,sort:$e(r),onSortChange:o=>A({sort:o.key,dir:o.direction})}),n=e.spans_truncated?a("p",{class:"muted"},`Showing the ${e.spans.length} spans with the largest total time.`):null;return a("div",{class:"table-scroll"},t,n)}function He(e){let{count:r,first:t,last:n}=e.steps,o=e.rank===null?`all ${e.ranks.length} ranks`:`rank ${e.rank}`;return r===0||t===null||n===null?`No completed steps (${o}).`:`${L(r)} steps, ${t}–${n} (${o}).`}function ie(e){let r=D({columns:Ne,rows:e.ranks,testId:"rank-table",rowTestId:"rank-row",rowName:t=>String(t.rank),rowClass:t=>t.rank===e.rank?"selected":void 0});return a("div",{class:"overview","data-testid":"overview"},Ie(e.warnings),U("Ranks",a("p",{class:"muted"},He(e)),a("div",{class:"table-scroll"},r)),U("Step time per rank",Oe(e)),U("Spans",Fe(e)))}var V="";function De(e){let r=Math.round(Math.min(1,Math.max(0,e.fraction))*100),t=a("div",{class:"progress-bar"});return t.style.width=`${r}%`,a("div",{class:"progress","data-testid":"progress"},a("div",{class:"progress-track",role:"progressbar","aria-valuemin":0,"aria-valuemax":100,"aria-valuenow":r},t),a("p",{},`Reading run files… ${r} % (${H(e.done_bytes)} of ${H(e.total_bytes)})`))}function le(e,r){let t=r instanceof v?`${r.message} (${r.code})`:String(r);return a("div",{class:"error","data-testid":"error",role:"alert"},a("strong",{},e),a("p",{},t))}function Be(){return a("div",{class:"empty","data-testid":"empty"},a("h2",{},"No runs yet"),a("p",{},"This logdir holds no tb-perf runs. See the README quick start to record one with the collectors (or point TensorBoard at a torch.profiler trace directory), then press TensorBoard's reload button."))}function ce(e){return e instanceof DOMException&&e.name==="AbortError"}var N=class{runs=[];run;rank;inFlight=new AbortController;runSelect=a("select",{"data-testid":"run-select","aria-label":"Run"});runStatus=a("span",{class:"badge","data-testid":"run-status"});rankSelect=a("select",{"data-testid":"rank-select","aria-label":"Rank"});toolbar=a("header",{class:"toolbar",hidden:!0},a("label",{},"Run ",this.runSelect),this.runStatus,a("label",{},"Rank ",this.rankSelect));content=a("main",{class:"content"},a("p",{class:"muted"},"Loading runs…"));constructor(r){let t=T();this.run=t.get("run");let n=Number.parseInt(t.get("rank")??"",10);this.rank=Number.isInteger(n)?n:null,this.runSelect.addEventListener("change",()=>{this.run=this.runSelect.value,this.showSelectedRun(),this.loadSummary(this.restart())}),this.rankSelect.addEventListener("change",()=>{this.rank=this.rankSelect.value===V?null:Number(this.rankSelect.value),this.saveSelection(),this.loadSummary(this.restart())}),r.replaceChildren(a("div",{class:"app"},this.toolbar,this.content))}async reload(){let r=this.restart();try{this.runs=await W(r)}catch(t){ce(t)||this.content.replaceChildren(le("Could not list the runs",t));return}if(this.toolbar.hidden=this.runs.length===0,this.runs.length===0){this.run=null,this.content.replaceChildren(Be());return}this.runSelect.replaceChildren(...this.runs.map(t=>a("option",{value:t.name},`${t.name} (${t.status})`))),this.runs.some(t=>t.name===this.run)||(this.run=this.runs[0]?.name??null),this.showSelectedRun(),await this.loadSummary(r)}restart(){return this.inFlight.abort(),this.inFlight=new AbortController,this.inFlight.signal}selectedRun(){return this.runs.find(r=>r.name===this.run)}showSelectedRun(){let r=this.selectedRun();r&&(this.runSelect.value=r.name,this.runStatus.textContent=r.status,this.runStatus.className=`badge status-${r.status}`,this.rank!==null&&!r.ranks.includes(this.rank)&&(this.rank=null),this.fillRankSelect(r.ranks.map(t=>({rank:t}))),this.saveSelection())}fillRankSelect(r){this.rankSelect.replaceChildren(a("option",{value:V},"All ranks"),...r.map(t=>a("option",{value:String(t.rank)},t.host?`rank ${t.rank} · ${t.host}`:`rank ${t.rank}`))),this.rankSelect.value=this.rank===null?V:String(this.rank)}saveSelection(){A({run:this.run,rank:this.rank===null?null:String(this.rank)})}async loadSummary(r){let t=this.run;if(t!==null){this.content.setAttribute("aria-busy","true");try{let n=await z(t,this.rank,r,o=>this.content.replaceChildren(De(o)));this.fillRankSelect(n.ranks),this.content.replaceChildren(ie(n))}catch(n){ce(n)||this.content.replaceChildren(le(`Could not load run “${t}”`,n))}finally{r.aborted||this.content.removeAttribute("aria-busy")}}}};var Ue="experimental.DataReloaded";function Ve(e){if(typeof e!="string")return null;try{let r=JSON.parse(e);return typeof r=="object"&&r!==null&&"type"in r&&"id"in r?r:null}catch{return null}}function ue(e){if(window.parent===window)return;let r=new MessageChannel;r.port1.onmessage=t=>{let n=Ve(t.data);if(n===null||n.isReply)return;let o={type:n.type,id:n.id,payload:null,error:null,isReply:!0};r.port1.postMessage(JSON.stringify(o)),n.type===Ue&&e()};try{window.parent.postMessage("experimental.bootstrap","*",[r.port2])}catch{}}var de=`/* Colours follow TensorBoard: white / #303030 backgrounds, orange accent. theme.ts sets data-theme. */
:root {
  color-scheme: light;
  --bg: #ffffff;
  --surface: #f5f5f5;
  --fg: #212121;
  --fg-muted: #616161;
  --border: #e0e0e0;
  --grid: #eeeeee;
  --accent: #f57c00;
  --row-hover: #fff3e0;
  --row-selected: #ffe0b2;
  --warning-bg: #fff8e1;
  --warning-border: #ffb300;
  --error-bg: #ffebee;
  --error-border: #e53935;
  --tooltip-bg: #ffffff;
  --status-live: #2e7d32;
  --status-stopped: #c62828;
  --status-finished: #616161;
}
:root[data-theme="dark"] {
  color-scheme: dark;
  --bg: #303030;
  --surface: #3a3a3a;
  --fg: #eeeeee;
  --fg-muted: #bdbdbd;
  --border: #555555;
  --grid: #444444;
  --accent: #ef6c00;
  --row-hover: #4a3a2a;
  --row-selected: #5d4037;
  --warning-bg: #4a3f1c;
  --warning-border: #ffb300;
  --error-bg: #4e2427;
  --error-border: #ef5350;
  --tooltip-bg: #424242;
  --status-live: #81c784;
  --status-stopped: #ef9a9a;
  --status-finished: #bdbdbd;
}

html,
body {
  margin: 0;
  background: var(--bg);
  color: var(--fg);
}
body {
  font:
    13px/1.45 Roboto,
    "Helvetica Neue",
    Arial,
    sans-serif;
}
[hidden] {
  display: none !important;
}

.toolbar {
  position: sticky;
  top: 0;
  z-index: 2;
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 16px;
  padding: 8px 16px;
  background: var(--bg);
  border-bottom: 1px solid var(--border);
}
.toolbar label {
  display: flex;
  align-items: center;
  gap: 6px;
  color: var(--fg-muted);
}
.toolbar select {
  font: inherit;
  color: var(--fg);
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 4px;
  padding: 3px 6px;
  max-width: 40ch;
}
.toolbar select:focus-visible {
  outline: 2px solid var(--accent);
  outline-offset: 1px;
}

.badge {
  border: 1px solid currentColor;
  border-radius: 10px;
  padding: 0 8px;
  font-size: 12px;
}
.status-live {
  color: var(--status-live);
}
.status-stopped {
  color: var(--status-stopped);
}
.status-finished {
  color: var(--status-finished);
}

.content {
  padding: 12px 16px 32px;
}
.content[aria-busy="true"] {
  opacity: 0.7;
}
.muted {
  color: var(--fg-muted);
  margin: 4px 0 8px;
}

.panel {
  margin-bottom: 20px;
}
h2 {
  font-size: 14px;
  font-weight: 500;
  margin: 0 0 6px;
}

.warnings,
.error,
.empty {
  border: 1px solid var(--border);
  border-left-width: 4px;
  border-radius: 4px;
  padding: 8px 12px;
  margin-bottom: 16px;
  overflow-wrap: anywhere;
}
.warnings {
  background: var(--warning-bg);
  border-left-color: var(--warning-border);
}
.warnings ul {
  margin: 0;
  padding-left: 20px;
}
.error {
  background: var(--error-bg);
  border-left-color: var(--error-border);
}
.error p {
  margin: 4px 0 0;
}
.empty {
  background: var(--surface);
  border-left-color: var(--accent);
}

.progress {
  max-width: 480px;
}
.progress-track {
  height: 6px;
  background: var(--grid);
  border-radius: 3px;
  overflow: hidden;
}
.progress-bar {
  height: 100%;
  background: var(--accent);
  transition: width 0.2s;
}

.table-scroll {
  overflow-x: auto;
}
.data-table {
  border-collapse: collapse;
  font-variant-numeric: tabular-nums;
}
.data-table th,
.data-table td {
  padding: 3px 10px;
  border-bottom: 1px solid var(--border);
  text-align: left;
  white-space: nowrap;
}
.data-table th {
  font-weight: 500;
  color: var(--fg-muted);
}
.data-table .numeric {
  text-align: right;
}
.data-table td[data-column="name"] {
  white-space: normal;
  overflow-wrap: anywhere;
  max-width: 48ch;
}
.data-table tbody tr:hover {
  background: var(--row-hover);
}
.data-table tr.selected {
  background: var(--row-selected);
}
.sort-button {
  font: inherit;
  color: inherit;
  background: none;
  border: 0;
  padding: 0;
  cursor: pointer;
}
.sort-button:focus-visible {
  outline: 2px solid var(--accent);
}
th[aria-sort] {
  color: var(--fg);
}

.chart {
  margin: 0;
}
.chart-plot {
  position: relative;
  width: 100%;
  min-height: 260px;
}
.chart-svg {
  display: block;
  overflow: visible;
}
.chart-tick,
.chart-label {
  fill: var(--fg-muted);
  font-size: 11px;
}
.chart-grid {
  stroke: var(--grid);
}
.chart-axis {
  stroke: var(--border);
}
.chart-line {
  fill: none;
  stroke-width: 1.5;
  stroke-linejoin: round;
}
.chart-guide {
  stroke: var(--fg-muted);
  stroke-dasharray: 3 3;
}
.chart-hover {
  fill: transparent;
}
.chart-marker {
  stroke: var(--bg);
  stroke-width: 1;
}
.chart-tooltip {
  position: absolute;
  pointer-events: none;
  z-index: 1;
  white-space: nowrap;
  background: var(--tooltip-bg);
  color: var(--fg);
  border: 1px solid var(--border);
  border-radius: 4px;
  padding: 4px 8px;
  box-shadow: 0 2px 6px rgb(0 0 0 / 0.2);
  font-variant-numeric: tabular-nums;
}
.tooltip-title {
  font-weight: 500;
}
.chart-legend {
  display: flex;
  flex-wrap: wrap;
  gap: 4px 14px;
  list-style: none;
  margin: 4px 0 0;
  padding: 0 0 0 68px;
}
.swatch {
  display: inline-block;
  width: 10px;
  height: 10px;
  border-radius: 2px;
  margin-right: 5px;
}
`;function xt(){document.head.append(a("style",{},de)),oe();let e=new N(document.body);ue(()=>{e.reload()}),e.reload()}export{xt as render};

var S=class extends Error{constructor(n,r){super(r);this.code=n}code};function G(t){return typeof t=="object"&&t!==null}function St(t){return G(t)&&G(t.progress)?t.progress:null}function Rt(t,e){let n=G(e)?e.error:void 0;return G(n)&&typeof n.message=="string"?new S(String(n.code??"error"),n.message):new S("http_error",`The server answered HTTP ${t}.`)}function Et(t,e){return new Promise((n,r)=>{let i=setTimeout(n,t);e.addEventListener("abort",()=>{clearTimeout(i),r(e.reason)},{once:!0})})}async function Mt(t,e){try{return await fetch(t,{signal:e,headers:{Accept:"application/json"}})}catch(n){throw e.aborted?n:new S("unreachable","The TensorBoard server did not answer. Is it still running?")}}async function C(t,e,n){for(;;){let r=await Mt(t,e),i=await r.json().catch(()=>null),o=r.status===202?St(i):null;if(o){n?.(o),await Et(500,e);continue}if(!r.ok)throw Rt(r.status,i);if(i===null)throw new S("bad_response","The server sent a response that is not JSON.");return i}}function ye(t){return C("./runs",t)}function xe(t,e,n,r){let i=new URLSearchParams({run:t});return e!==null&&i.set("rank",String(e)),C(`./summary?${i}`,n,r)}function ke(t,e){for(let[n,r]of Object.entries(e))r===void 0||r===!1||t.setAttribute(n,r===!0?"":String(r))}function l(t,e={},...n){let r=document.createElement(t);ke(r,e);for(let i of n)i!=null&&i!==!1&&r.append(i);return r}var At="http://www.w3.org/2000/svg";function R(t,e={},...n){let r=document.createElementNS(At,t);ke(r,e);for(let i of n)i!=null&&i!==!1&&r.append(i);return r}var w={top:10,right:16,bottom:38,left:68},Lt=90,_t=40;function Te(t,e,n,r){let o=(e-t||Math.abs(e)||1)/Math.max(1,n),s=10**Math.floor(Math.log10(o)),d=[1,2,5,10].map(a=>a*s).find(a=>a>=o)??10*s;r&&(d=Math.max(1,Math.round(d)));let m=Math.floor(t/d)*d,u=Math.max(Math.ceil(e/d)*d,m+d),c=[];for(let a=0;m+a*d<=u+d/2;a+=1)c.push(Number((m+a*d).toPrecision(12)));return{min:m,max:u,ticks:c}}function Ee(t,e){let n=0,r=t.length;for(;n<r;){let i=n+r>>1;(t[i]??1/0)<e?n=i+1:r=i}return n}function Pt(t,e){let n=null;for(let{x:r}of t){let i=Ee(r,e);for(let o of[r[i-1],r[i]])o!==void 0&&(n===null||Math.abs(o-e)<Math.abs(n-e))&&(n=o)}return n}function Se(t){let e=1/0,n=-1/0;for(let r of t)r<e&&(e=r),r>n&&(n=r);return[e,n]}function*Re(t,e){for(let n of t)yield*n[e]}function Ct(t,e,n){let{series:r,height:i}=t,o=e-w.left-w.right,s=i-w.top-w.bottom,[d,m]=Se(Re(r,"x")),[,u]=Se(Re(r,"y")),c=Te(d,m,o/Lt,!0),a=Te(0,u,s/_t,!1),h=g=>w.left+(g-c.min)/(c.max-c.min)*o,p=g=>w.top+(1-(g-a.min)/(a.max-a.min))*s,f=w.top+s,x=R("svg",{width:e,height:i,class:"chart-svg",role:"img"}),P=t.yTickFormat(a.ticks);for(let g of a.ticks){let L=p(g).toFixed(1);x.append(R("line",{class:"chart-grid",x1:w.left,x2:e-w.right,y1:L,y2:L}),R("text",{class:"chart-tick",x:w.left-6,y:L,"text-anchor":"end","dominant-baseline":"middle"},P(g)))}for(let g of c.ticks)x.append(R("text",{class:"chart-tick",x:h(g).toFixed(1),y:f+16,"text-anchor":"middle"},t.formatX(g)));x.append(R("line",{class:"chart-axis",x1:w.left,x2:e-w.right,y1:f,y2:f}),R("text",{class:"chart-label",x:w.left+o/2,y:i-4,"text-anchor":"middle"},t.xLabel));for(let g of r){let L=g.x.map((Q,E)=>`${h(Q).toFixed(1)},${p(g.y[E]??0).toFixed(1)}`);x.append(L.length===1?R("circle",{cx:h(g.x[0]??0),cy:p(g.y[0]??0),r:3,fill:g.color,"data-series":g.label}):R("polyline",{class:"chart-line",points:L.join(" "),stroke:g.color,"data-series":g.label}))}let v=R("line",{class:"chart-guide",y1:w.top,y2:f,visibility:"hidden"}),H=R("g"),Y=R("rect",{x:w.left,y:w.top,width:o,height:s,class:"chart-hover"});x.append(v,H,Y);let ge=()=>{v.setAttribute("visibility","hidden"),H.replaceChildren(),n.hidden=!0};return Y.addEventListener("pointerleave",ge),Y.addEventListener("pointermove",g=>{let L=x.getBoundingClientRect().left,Q=c.min+(g.clientX-L-w.left)/o*(c.max-c.min),E=Pt(r,Q);if(E===null)return ge();let ve=[];H.replaceChildren();for(let I of r){let we=Ee(I.x,E),te=I.y[we];I.x[we]!==E||te===void 0||(H.append(R("circle",{cx:h(E),cy:p(te),r:3.5,fill:I.color,class:"chart-marker"})),ve.push(l("div",{class:"tooltip-row"},l("span",{class:"swatch",style:`background:${I.color}`}),`${I.label}: ${t.formatY(te)}`)))}v.setAttribute("x1",h(E).toFixed(1)),v.setAttribute("x2",h(E).toFixed(1)),v.setAttribute("visibility","visible"),n.replaceChildren(l("div",{class:"tooltip-title"},`${t.xLabel} ${t.formatX(E)}`),...ve),n.hidden=!1;let ee=12,Tt=h(E)+ee+n.offsetWidth>e;n.style.left=`${Tt?h(E)-ee-n.offsetWidth:h(E)+ee}px`,n.style.top=`${w.top}px`}),x}function Me(t){let e=l("div",{class:"chart-tooltip",role:"tooltip","data-testid":`${t.testId}-tooltip`});e.hidden=!0;let n=l("div",{class:"chart-plot"},e),r=l("ul",{class:"chart-legend"},...t.series.map(o=>l("li",{},l("span",{class:"swatch",style:`background:${o.color}`}),o.label))),i=0;return new ResizeObserver(()=>{let o=n.clientWidth;o===0||o===i||(i=o,n.replaceChildren(Ct(t,o,e),e))}).observe(n),l("figure",{class:"chart","data-testid":t.testId},n,r)}var Nt=new Intl.NumberFormat("en-US");function K(t){let e=Math.abs(t),n=e>=100?0:e>=10?1:2;return new Intl.NumberFormat("en-US",{minimumFractionDigits:n,maximumFractionDigits:n}).format(t)}function k(t){if(t==null||!Number.isFinite(t))return"—";let e=Math.abs(t);return e>=1e9?`${K(t/1e9)} s`:e>=1e6?`${K(t/1e6)} ms`:e>=1e3?`${K(t/1e3)} µs`:`${Math.round(t)} ns`}var Ae=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]];function Le(t){let e=Math.max(0,...t.map(Math.abs)),[n,r]=Ae.find(([s])=>e>=s)??[1,"ns"],i=t.length>1?Math.abs((t[1]??0)-(t[0]??0))/n:1,o=Math.min(3,Math.max(0,-Math.floor(Math.log10(i))));return s=>`${(s/n).toFixed(o)} ${r}`}function T(t){return t==null?"—":Nt.format(t)}function _e(t){return t==null||!Number.isFinite(t)?"—":t>0&&t<.05?"<0.1 %":`${t.toFixed(1)} %`}function _(t){let e=["B","KB","MB","GB","TB"],n=t,r=0;for(;n>=1e3&&r<e.length-1;)n/=1e3,r+=1;return r===0?`${t} B`:`${K(n)} ${e[r]}`}function U(t){let[e,n]=Ae.find(([i])=>Math.abs(t)>=i)??[1,"ns"],r=Math.round(Math.log10(e));return`${(t/e).toFixed(r)} ${n}`}function N(){return new URLSearchParams(location.hash.slice(1))}function W(t){let e=N();for(let[r,i]of Object.entries(t))i===null?e.delete(r):e.set(r,i);let n=new URL(location.href);n.hash=e.toString(),history.replaceState(history.state,"",n.href)}var Dt={asc:"ascending",desc:"descending"},$t={asc:" ▲",desc:" ▼"},Ht={asc:"desc",desc:"asc"};function It(t,e){return typeof t=="number"&&typeof e=="number"?t-e:String(t).localeCompare(String(e))}function Wt(t,e,n){let r=n==="asc"?1:-1;return[...t].sort((i,o)=>{let s=e.value(i),d=e.value(o);return s===null||d===null?s===d?0:s===null?1:-1:r*It(s,d)})}function Ot(t){return t.numeric?"desc":"asc"}function ne(t){let{columns:e,testId:n}=t,r=t.sort,i=l("table",{class:"data-table","data-testid":n}),o=l("tr"),s=l("tbody");i.append(l("thead",{},o),s);let d=()=>{o.replaceChildren(...e.map(u=>{let c=r?.key===u.key?r.direction:void 0,a=l("th",{class:u.numeric?"numeric":void 0,title:u.title,"aria-sort":c&&Dt[c],"data-column":u.key});if(!r)return a.append(u.label),a;let h=c?$t[c]:"",p=l("button",{type:"button",class:"sort-button"},u.label+h);return p.addEventListener("click",()=>{let f=c===void 0?Ot(u):Ht[c];r={key:u.key,direction:f},t.onSortChange?.(r),d(),m()}),a.append(p),a}))},m=()=>{let u=r&&e.find(a=>a.key===r?.key),c=r&&u?Wt(t.rows,u,r.direction):t.rows;s.replaceChildren(...c.map(a=>l("tr",{"data-testid":t.rowTestId,"data-name":t.rowName(a),class:t.rowClass?.(a)},...e.map(h=>{let p=h.value(a);return l("td",{class:h.numeric?"numeric":void 0,"data-column":h.key,"data-value":p===null?void 0:String(p)},h.format?h.format(a):String(p??"—"))}))))};return d(),m(),i}function re(t){document.documentElement.dataset.theme=t?"dark":"light"}function Bt(){if(window.parent===window)return null;try{return window.parent.document.body}catch{return null}}function Ce(){let t=Bt();if(t){let n=()=>re(t.classList.contains("dark-mode"));n(),new MutationObserver(n).observe(t,{attributes:!0,attributeFilter:["class"]});return}let e=window.matchMedia("(prefers-color-scheme: dark)");re(e.matches),e.addEventListener("change",n=>re(n.matches))}var Pe=["#4e79a7","#f28e2b","#e15759","#76b7b2","#59a14f","#edc948","#b07aa1","#ff9da7","#9c755f","#bab0ac"];function Ne(t){return Pe[Math.max(0,t)%Pe.length]??"#888"}var De={key:"total_ns",direction:"desc"},M=(t,e,n,r)=>({key:t,label:e,numeric:!0,value:n,format:i=>k(n(i)),...r===void 0?{}:{title:r}}),Ft=[{key:"rank",label:"rank",numeric:!0,value:t=>t.rank},{key:"host",label:"host",numeric:!1,value:t=>t.host},{key:"pid",label:"pid",numeric:!0,value:t=>t.pid,format:t=>String(t.pid)},{key:"status",label:"status",numeric:!1,value:t=>t.status},{key:"steps",label:"steps",numeric:!0,value:t=>t.steps,format:t=>T(t.steps)},M("mean","mean step",t=>t.step_time_ns?.mean??null),M("p50","p50 step",t=>t.step_time_ns?.p50??null),M("p95","p95 step",t=>t.step_time_ns?.p95??null),M("max","max step",t=>t.step_time_ns?.max??null)];function Xt(t){let e=[{key:"name",label:"name",numeric:!1,value:n=>n.name},{key:"calls",label:"calls",numeric:!0,value:n=>n.calls,format:n=>T(n.calls)},M("total_ns","total",n=>n.total_ns,"Sum of the span's durations"),M("self_ns","self",n=>n.self_ns,"Total minus the time of direct child spans"),M("mean_ns","mean",n=>n.mean_ns),M("p50_ns","p50",n=>n.p50_ns),M("p95_ns","p95",n=>n.p95_ns),{key:"pct_of_step",label:"% of step",title:"Total as a share of all step time of the selected ranks (can exceed 100 % for spans outside steps)",numeric:!0,value:n=>n.pct_of_step,format:n=>_e(n.pct_of_step)}];return t&&e.push(M("gpu_total_ns","GPU total",r=>r.gpu_total_ns,"Sum of the spans' CUDA-event durations")),e}function Ut(t){let e=N(),n=e.get("sort"),r=e.get("dir");return!t.some(i=>i.key===n)||r!=="asc"&&r!=="desc"?De:{key:n??De.key,direction:r}}function ie(t,...e){return l("section",{class:"panel"},l("h2",{},t),...e)}function zt(t){return t.length===0?null:l("section",{class:"warnings","data-testid":"warnings",role:"status"},l("h2",{},t.length===1?"1 warning while reading this run":`${t.length} warnings while reading this run`),l("ul",{},...t.map(e=>l("li",{},e))))}function Gt(t){let e=t.step_series.filter(s=>s.steps.length>0);if(e.length===0)return l("p",{class:"muted"},"No completed steps yet.");let n=t.ranks.map(s=>s.rank),r=Math.max(...e.map(s=>s.bucket)),i=Me({series:e.map(s=>({label:`rank ${s.rank}`,color:Ne(n.indexOf(s.rank)),x:s.steps,y:s.time_ns})),height:260,xLabel:"step",formatX:s=>String(s),formatY:k,yTickFormat:Le,testId:"step-chart"}),o=r>1?l("p",{class:"muted"},`Each point is the mean of ${r} consecutive steps.`):null;return l("div",{},i,o)}function Kt(t){if(t.spans.length===0)return l("p",{class:"muted"},"No timer spans in this run. Wrap code in MyTimer spans to see where step time goes.");let e=Xt(t.spans.some(i=>i.gpu_total_ns!==null)),n=ne({columns:e,rows:t.spans,testId:"span-table",rowTestId:"span-row",rowName:i=>i.name,sort:Ut(e),onSortChange:i=>W({sort:i.key,dir:i.direction})}),r=t.spans_truncated?l("p",{class:"muted"},`Showing the ${t.spans.length} spans with the largest total time.`):null;return l("div",{class:"table-scroll"},n,r)}function Vt(t){let{count:e,first:n,last:r}=t.steps,i=t.rank===null?`all ${t.ranks.length} ranks`:`rank ${t.rank}`;return e===0||n===null||r===null?`No completed steps (${i}).`:`${T(e)} steps, ${n}–${r} (${i}).`}function qt(t){let e=ne({columns:Ft,rows:t.ranks,testId:"rank-table",rowTestId:"rank-row",rowName:n=>String(n.rank),rowClass:n=>n.rank===t.rank?"selected":void 0});return l("div",{class:"overview","data-testid":"overview"},zt(t.warnings),ie("Ranks",l("p",{class:"muted"},Vt(t)),l("div",{class:"table-scroll"},e)),ie("Step time per rank",Gt(t)),ie("Spans",Kt(t)))}var $e={id:"overview",label:"Overview",usesRankSelect:!0,async show({run:t,rank:e,signal:n,onProgress:r,onRanks:i}){let o=await xe(t,e,n,r);return i(o.ranks),qt(o)}};var se={window:null,selected:null,enabledRanks:null,search:""};function oe(t){if(t===null||t.trim()==="")return null;let e=Number(t);return Number.isSafeInteger(e)?e:null}function He(t,e){if(t===null)return null;if(t==="")return[];let n=t.split(e).map(oe);return n.every(r=>r!==null)?n:null}function Ie(){let t=N(),e=oe(t.get("start")),n=oe(t.get("end")),r=He(t.get("sel"),":"),[i,o]=r?.length===2?r:[];return{window:e!==null&&n!==null&&n>e?{start:e,end:n}:null,selected:i!==void 0&&o!==void 0?{rank:i,id:o}:null,enabledRanks:He(t.get("ranks"),","),search:t.get("q")??""}}function D(t){let e={};t.window!==void 0&&(e.start=t.window&&String(Math.round(t.window.start)),e.end=t.window&&String(Math.round(t.window.end))),t.selected!==void 0&&(e.sel=t.selected&&`${t.selected.rank}:${t.selected.id}`),t.enabledRanks!==void 0&&(e.ranks=t.enabledRanks&&t.enabledRanks.join(",")),t.search!==void 0&&(e.q=t.search===""?null:t.search),W(e)}var jt={clock_sync:"The collectors measured this rank's clock offset to rank 0.",collectives:"Offset fitted so that the same collectives end together on every rank.",steps:"Offset chosen so that this rank's step boundaries line up with the other ranks'.",reference:"Rank 0's own clock: the reference the other ranks are aligned to.",none:"Not aligned: no clock sync, collectives or steps to align with."};function We(t){let{method:e,uncertainty_ns:n}=t;return e==="reference"||e==="none"?e:`${e} ±${k(n)}`}function Oe(t){let e=[jt[t.method]??t.method];if(t.method!=="reference"&&t.method!=="none"){if(e.push(`Offset added to this rank's clock: ${k(t.offset_ns)}.`,`Remaining error at most ±${k(t.uncertainty_ns)}.`),t.method==="collectives"||t.method==="steps"){let n=t.outliers?`, ${t.outliers} set aside as outliers`:"";e.push(`Fitted on ${t.pairs} matched pairs${n}.`)}t.drift_ns_per_s!==null&&e.push(`Clock drift corrected: ${k(t.drift_ns_per_s)} per s.`)}return e}var Zt=1e3;function Be(t,e){return e!==null&&t.set("ranks",e.join(",")),t}function Fe(t,e,n){return C(`./timeline/meta?${new URLSearchParams({run:t})}`,e,n)}function Xe(t,e,n,r){let i=new URLSearchParams({run:t,start:String(e.start),end:String(e.end),width_px:String(e.widthPx)});return C(`./timeline/tiles?${Be(i,e.ranks)}`,n,r)}function ae(t,e,n){let r=new URLSearchParams({run:t,rank:String(e.rank),id:String(e.id)});return C(`./timeline/event?${r}`,n)}function Ue(t,e,n,r){let i=new URLSearchParams({run:t,q:e,limit:String(Zt)});return C(`./timeline/search?${Be(i,n)}`,r)}function ze(t){let e=2166136261;for(let n=0;n<t.length;n+=1)e^=t.charCodeAt(n),e=Math.imul(e,16777619);return(e>>>0)%40}function Ge(t){return Array.from({length:40},(e,n)=>{let r=Math.round(n*137.508%360),i=(t?36:72)+n%3*4;return`hsl(${r} ${t?40:55}% ${i}%)`})}function le(){let t=getComputedStyle(document.documentElement),e=r=>t.getPropertyValue(r).trim(),n=document.documentElement.dataset.theme==="dark";return{dark:n,background:e("--bg"),surface:e("--surface"),text:e("--fg"),mutedText:e("--fg-muted"),border:e("--border"),grid:e("--grid"),accent:e("--accent"),boxText:n?"#f5f5f5":"#212121",boxes:Ge(n)}}function Ke(t,e,n){return t.map(({rank:r})=>{let i=l("button",{type:"button",class:"rank-toggle","aria-pressed":String(e(r)),"data-testid":"timeline-rank-toggle","data-rank":r,title:`Show or hide rank ${r}`},`rank ${r}`);return i.addEventListener("click",()=>n(r)),i})}function Ve(t,e){let n=l("select",{"data-testid":"timeline-step-select","aria-label":"Jump to step",disabled:t.length===0},l("option",{value:""},t.length===0?"No steps":"Jump to step…"),...t.map((r,i)=>l("option",{value:String(i)},`step ${r.step} (${k(r.end-r.start)})`)));return n.addEventListener("change",()=>{let r=t[Number(n.value)];n.value!==""&&r&&e(r)}),n}function Jt(t){return typeof t=="string"?t:JSON.stringify(t)}function A(t,e){return l("tr",{},l("th",{scope:"row"},t),l("td",{},e))}function Yt(t){let{event:e,peer:n}=t,r=e.flow;if(r===null)return null;let o=e.kind==="runtime"?"Launches":"Launched by",s=n?.name??`event ${r.id}`,d=l("button",{type:"button",class:"link-button","data-testid":"timeline-flow-link"},`${s} (rank ${r.rank}, ${t.laneLabel(r.lane)}) →`);return d.addEventListener("click",()=>t.onJump({rank:r.rank,id:r.id})),A(o,d)}function qe(t){let{event:e,zero:n}=t,r=l("button",{type:"button",class:"link-button"},"Zoom to event");r.addEventListener("click",t.onZoom);let i=Object.entries(e.args);return l("div",{class:"details-body"},l("div",{class:"details-header"},l("h2",{class:"details-title",title:e.name},e.name),r),l("table",{class:"details-table"},l("tbody",{},A("kind",e.kind),A("rank",String(e.rank)),A("lane",t.laneLabel(e.lane)),A("step",e.step===null?"—":String(e.step)),A("start",`${U(e.start-n)} from run start`),A("duration",`${k(e.dur)} (${e.dur.toLocaleString("en-US")} ns)`),A("event id",String(e.id)),Yt(t))),i.length===0?null:l("table",{class:"details-table details-args","data-testid":"timeline-details-args"},l("caption",{},"Arguments"),l("tbody",{},...i.map(([o,s])=>A(o,Jt(s))))))}function Qt(t){return t.kind==="counter"?36:Math.max(1,t.rows)*18+6}function je(t,e,n){let r=[],i=new Map,o=0;for(let s of t.ranks){if(!e.has(s.rank))continue;let d=n.has(s.rank);if(r.push({type:"rank",rank:s,collapsed:d,top:o,height:24}),o+=24,!d)for(let m of s.lanes){let u={type:"lane",rank:s.rank,lane:m,top:o,height:Qt(m)};r.push(u),i.set(m.id,u),o+=u.height}}return{bands:r,lanes:i,height:o}}function Ze(t,e){return t.bands.find(n=>e>=n.top&&e<n.top+n.height)??null}function O(t,e){return t.top+3+e*18}function Je(t,e){let n=Math.floor((e-t.top-3)/18);return n>=0&&n<t.lane.rows?n:-1}function Ye(t){return t.bands.flatMap(e=>e.type==="rank"&&!e.collapsed?[e.rank.rank]:[])}var en=3,tn=.0015,nn=16,rn=400,on=.8,sn=.1,an=Math.log(10),ln=1;function dn(t){if(t.ctrlKey||t.metaKey||t.altKey)return null;let e=t.key.toLowerCase();return e==="w"||e==="a"||e==="s"||e==="d"?e:null}function Qe(t,e){return e===WheelEvent.DOM_DELTA_LINE?t*nn:e===WheelEvent.DOM_DELTA_PAGE?t*rn:t}function et(t,e){let n=null,r=new Set,i=0,o=(a,h)=>e.zoomAt(n,a==="w"?h:1/h),s=(a,h)=>e.panBy((a==="d"?1:-1)*h*e.timeAreaWidth()),d=a=>{a==="w"||a==="s"?o(a,on):s(a,sn)},m=(a,h)=>{a==="w"||a==="s"?o(a,Math.exp(-an*h)):s(a,ln*h)},u=a=>{if(r.size===0)return;let h=Math.min(.05,(a-i)/1e3);i=a;for(let p of r)m(p,h);requestAnimationFrame(u)};t.addEventListener("keydown",a=>{if(a.key==="Escape"){e.escape();return}let h=dn(a);h!==null&&(a.preventDefault(),!(a.repeat||r.has(h))&&(d(h),r.add(h),r.size===1&&(i=performance.now(),requestAnimationFrame(u))))}),t.addEventListener("keyup",a=>{r.delete(a.key.toLowerCase())}),t.addEventListener("blur",()=>r.clear()),t.addEventListener("wheel",a=>{if(a.offsetX<220)return;a.preventDefault();let h=Qe(a.deltaX,a.deltaMode),p=Qe(a.deltaY,a.deltaMode);Math.abs(h)>Math.abs(p)?e.panBy(h):e.zoomAt(a.offsetX,Math.exp(p*tn))},{passive:!1});let c=null;t.addEventListener("pointerdown",a=>{a.button===0&&(t.setPointerCapture(a.pointerId),c={startX:a.offsetX,lastX:a.offsetX,moved:!1})}),t.addEventListener("pointermove",a=>{if(n=a.offsetX>=220?a.offsetX:null,c===null){e.hoverAt(a.offsetX,a.offsetY);return}Math.abs(a.offsetX-c.startX)>en&&(c.moved=!0),c.moved&&(e.panBy(c.lastX-a.offsetX),c.lastX=a.offsetX)}),t.addEventListener("pointerup",a=>{c!==null&&!c.moved&&e.clickAt(a.offsetX,a.offsetY),c=null}),t.addEventListener("pointercancel",()=>{c=null}),t.addEventListener("pointerleave",()=>{n=null,e.hoverEnd()})}var un=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]],cn=1e4;function hn(t){let e=10**Math.floor(Math.log10(t));return[1,2,5,10].map(n=>n*e).find(n=>n>=t)??10*e}function tt(t){return un.find(([e])=>t>=e)??[1,"ns"]}function nt(t,e){return Math.max(0,Math.ceil(-Math.log10(t/e)-1e-9))}function rt(t,e,n,r,i){let o=Math.max(1,hn((e-t)/Math.max(1,n)*r)),s=Math.ceil((t-i)/o)*o,d=Math.abs(s)/o>cn,m=o*100,u=d?Math.floor(s/m)*m:0,c=[];for(let v=s;i+v<e;v+=o)c.push(v);let a=Math.max(o,...c.map(v=>Math.abs(v-u))),[h,p]=tt(a),f=nt(o,h),x=c.map(v=>`${d?"+":""}${((v-u)/h).toFixed(f)} ${p}`),P=null;if(d){let[v,H]=tt(Math.abs(u)||1);P=`${(u/v).toFixed(nt(m,v))} ${H}`}return{ticks:c.map(v=>i+v),labels:x,baseLabel:P}}var V="11px Roboto, 'Helvetica Neue', Arial, sans-serif",mn="500 12px Roboto, 'Helvetica Neue', Arial, sans-serif",pn=110,fn=1,bn=28,gn=.45;function vn(t){let{window:e,width:n}=t,r=(n-220)/Math.max(1,e.end-e.start);return{x:i=>220+(i-e.start)*r,left:220,right:n}}var ue=0;function wn(t){if(ue===0){let e="aten::addmm_sgemm_128x64_nn cudaLaunchKernel ProfilerStep#12";ue=t.measureText(e).width/e.length}return ue}function ce(t,e,n){let r=Math.floor(n/wn(t));return r<2?null:e.length<=r?e:`${e.slice(0,r-1)}…`}function yn(t){let e=t.scrollTop,n=e+t.height-28;return t.layout.bands.filter(r=>r.type==="lane"&&r.top+r.height>e&&r.top<n)}function xn(t,e,n,r,i){let{theme:o,tile:s}=i,d=u=>{let c=r.x(e.start[u]??0),a=r.x(e.end[u]??0);if(a<r.left||c>r.right)return null;let h=Math.round(Math.max(c,r.left-1)),p=Math.round(Math.min(a,r.right+1));return[h,Math.max(p-h,fn)]},m=(u,c)=>{t.rect(c[0],O(n,e.row[u]??0)+1,c[1],16)};for(let u=0;u<40;u+=1){let c=e.colorOffsets[u]??0,a=e.colorOffsets[u+1]??0;if(c!==a){t.fillStyle=o.boxes[u]??o.accent;for(let h of[!1,!0]){t.beginPath();for(let p=c;p<a;p+=1){let f=e.byColor[p]??0;if((e.count[f]??1)>1!==h)continue;let x=d(f);x&&m(f,x)}t.globalAlpha=h?gn:1,t.fill()}}}t.globalAlpha=1,t.fillStyle=o.boxText;for(let u=0;u<e.size;u+=1){let c=d(u);if(c===null||c[1]<bn)continue;let a=s?.names[e.name[u]??0]??"",h=e.count[u]??1,p=ce(t,h>1?`${T(h)} × ${a}`:a,c[1]-6);p!==null&&t.fillText(p,c[0]+3,O(n,e.row[u]??0)+18/2)}}function ot(t){let e=0;for(let n of t.value)e=Math.max(e,n);return e||1}function me(t,e){return/bytes/i.test(t)?_(e):T(e)}function kn(t,e,n,r,i){let{t:o,value:s}=e;if(o.length===0)return;let d=ot(e),m=n.top+n.height-2,u=a=>m-a/d*(n.height-8),c=Math.min(r.x(i.tile?.end??i.window.end),r.right);t.beginPath(),t.moveTo(r.x(o[0]??0),m);for(let a=0;a<o.length;a+=1){let h=Math.max(r.x(o[a]??0),r.left-1),p=Math.min(a+1<o.length?r.x(o[a+1]??0):c,r.right+1),f=u(s[a]??0);t.lineTo(h,f),t.lineTo(p,f)}t.lineTo(c,m),t.closePath(),t.globalAlpha=.3,t.fillStyle=i.theme.accent,t.fill(),t.globalAlpha=1,t.strokeStyle=i.theme.accent,t.lineWidth=1,t.stroke()}function Tn(t,e,n){let r=e.layout.lanes.get(t.lane);if(!r)return null;let i=Math.max(n.x(t.start),n.left-2),o=Math.min(n.x(t.end),n.right+2);return[i,O(r,t.row),Math.max(o-i,2)]}function it(t,e,n,r,i){let o=Tn(e,n,r);o&&(t.lineWidth=i,t.strokeStyle=n.theme.text,t.strokeRect(o[0],o[1]+.5,o[2],17))}function Sn(t,e,n,r){let i=n.layout.lanes.get(e.from.lane),o=n.layout.lanes.get(e.to.lane);if(!i||!o)return;let s=r.x(e.from.start),d=O(i,e.from.row)+18/2,m=r.x(e.to.start),u=O(o,e.to.row)+18/2,c=Math.max(20,Math.abs(u-d)/2);t.strokeStyle=n.theme.accent,t.fillStyle=n.theme.accent,t.lineWidth=1.5,t.beginPath(),t.moveTo(s,d),t.bezierCurveTo(s,d+Math.sign(u-d||1)*c,m,u-Math.sign(u-d||1)*c,m,u),t.stroke();let a=Math.sign(u-d||1);t.beginPath(),t.moveTo(m,u),t.lineTo(m-4,u-a*8),t.lineTo(m+4,u-a*8),t.closePath(),t.fill();for(let[h,p]of[[s,d],[m,u]])t.beginPath(),t.arc(h,p,3,0,2*Math.PI),t.fill()}function Rn(t,e){let{theme:n,width:r}=e,i=e.scrollTop,o=i+e.height-28;t.fillStyle=n.surface,t.fillRect(0,i,220,o-i),t.textBaseline="middle";for(let s of e.layout.bands)if(!(s.top+s.height<=i||s.top>=o)){if(s.type==="rank"){t.fillStyle=n.grid,t.fillRect(0,s.top,r,24),t.font=mn,t.fillStyle=n.text;let d=`${s.collapsed?"▸":"▾"} rank ${s.rank.rank}`;t.fillText(d,8,s.top+24/2),t.font=V,t.fillStyle=n.mutedText;let m=ce(t,We(s.rank.alignment),140);m&&t.fillText(m,76,s.top+24/2)}else{t.font=V,t.fillStyle=n.text;let d=ce(t,s.lane.label,196);d&&t.fillText(d,16,s.top+Math.min(s.height,24)/2);let m=e.tile?.counters.get(s.lane.id);if(m&&m.t.length>0){t.fillStyle=n.mutedText;let u=`max ${me(s.lane.label,ot(m))}`;t.fillText(u,16,s.top+s.height-9)}}t.fillStyle=n.border,t.fillRect(0,s.top+s.height-1,r,1)}t.fillRect(219,i,1,o-i)}function En(t,e,n,r){let{theme:i,width:o}=n;t.fillStyle=i.background,t.fillRect(0,0,o,28),t.fillStyle=i.border,t.fillRect(0,27,o,1),t.font=V,t.textBaseline="middle",t.fillStyle=i.mutedText,t.fillText(e.baseLabel?`from ${e.baseLabel}`:"from run start",8,28/2),e.ticks.forEach((s,d)=>{let m=Math.round(r.x(s))+.5;t.fillRect(m,22,1,5),t.fillText(e.labels[d]??"",m+3,28/2-2)})}function st(t,e){let{width:n,height:r,theme:i,tile:o,window:s}=e,d=vn(e),m=rt(s.start,s.end,n-220,pn,e.zero);t.fillStyle=i.background,t.fillRect(0,0,n,r),t.font=V,t.textBaseline="middle",t.save(),t.beginPath(),t.rect(0,28,n,r-28),t.clip(),t.translate(0,28-e.scrollTop),Rn(t,e),t.save(),t.beginPath(),t.rect(220,e.scrollTop,n-220,r),t.clip(),t.fillStyle=i.grid;for(let u of m.ticks)t.fillRect(Math.round(d.x(u)),e.scrollTop,1,r);for(let u of yn(e)){let c=o?.lanes.get(u.lane.id);c&&xn(t,c,u,d,e);let a=o?.counters.get(u.lane.id);a&&kn(t,a,u,d,e)}e.hovered&&it(t,e.hovered,e,d,1),e.selected&&it(t,e.selected,e,d,2),e.flow&&Sn(t,e.flow,e,d),t.restore(),t.restore(),En(t,m,e,d),e.emptyMessage!==null&&(t.fillStyle=i.mutedText,t.textAlign="center",t.fillText(e.emptyMessage,220+(n-220)/2,68),t.textAlign="start")}var Mn=250,q=class{constructor(e){this.options=e;this.input=l("input",{type:"search",class:"search-input",placeholder:"Search events by name","aria-label":"Search events by name","data-testid":"timeline-search",value:e.initialText});let n=l("button",{type:"button","data-testid":"timeline-prev",title:"Previous match (Shift+Enter)"},"‹ Prev"),r=l("button",{type:"button","data-testid":"timeline-next",title:"Next match (Enter)"},"Next ›");n.addEventListener("click",()=>{this.step(-1)}),r.addEventListener("click",()=>{this.step(1)}),this.input.addEventListener("input",()=>{this.options.onTextChange(this.text()),clearTimeout(this.typingTimer),this.typingTimer=window.setTimeout(()=>{this.refresh()},Mn)}),this.input.addEventListener("keydown",i=>{i.key==="Enter"&&(i.preventDefault(),this.step(i.shiftKey?-1:1))}),this.element=l("div",{class:"search",role:"search"},this.input,this.count,n,r)}options;element;input;count=l("span",{class:"search-count","data-testid":"timeline-search-count","aria-live":"polite"});result=null;resultText="";index=-1;inFlight=new AbortController;typingTimer=0;text(){return this.input.value.trim()}refresh(){clearTimeout(this.typingTimer),this.inFlight.abort(),this.inFlight=new AbortController;let e=this.inFlight.signal,n=this.text();return this.index=-1,n===""?(this.result=null,this.resultText="",this.showCount(),Promise.resolve()):(this.count.textContent="…",this.options.search(n,e).then(r=>{e.aborted||(this.result=r,this.resultText=n,this.showCount())},r=>{e.aborted||(this.result=null,this.count.textContent="search failed",this.count.title=r instanceof S?r.message:String(r))}))}async step(e){(this.result===null||this.resultText!==this.text())&&await this.refresh();let n=this.result?.matches??[];if(n.length===0)return;if(this.index===-1){let i=this.options.viewStart(),o=n.findIndex(d=>d.start>=i),s=o===-1?0:o;this.index=e===1?s:(s-1+n.length)%n.length}else this.index=(this.index+e+n.length)%n.length;this.showCount();let r=n[this.index];r&&this.options.onMatch(r)}showCount(){let e=this.result;this.count.title="",e===null?this.count.textContent="":e.total===0?this.count.textContent="no matches":this.index===-1?this.count.textContent=`${T(e.total)} ${e.total===1?"match":"matches"}`:this.count.textContent=`${T(this.index+1)} / ${T(e.total)}`,e!==null&&e.total>e.matches.length&&(this.count.title=`Next and previous visit the first ${T(e.matches.length)} matches in time order.`)}};function at(t,e){let n=new Uint32Array(e);for(let s=0;s<t.length;s+=1){let d=t[s]??0;n[d]=(n[d]??0)+1}let r=new Uint32Array(e+1);for(let s=0;s<e;s+=1)r[s+1]=(r[s]??0)+(n[s]??0);let i=r.slice(0,e),o=new Uint32Array(t.length);for(let s=0;s<t.length;s+=1){let d=t[s]??0;o[i[d]??0]=s,i[d]=(i[d]??0)+1}return[o,r]}function An(t,e,n){for(let r=0;r+1<e.length;r+=1){let i=t.subarray(e[r]??0,e[r+1]??0);for(let o=1;o<i.length;o+=1)if((n[i[o]??0]??0)<(n[i[o-1]??0]??0)){i.sort((s,d)=>(n[s]??0)-(n[d]??0));break}}}function Ln(t,e){let n=t.start.length,r=new Float64Array(n),i=new Float64Array(n),o=new Uint16Array(n),s=new Uint32Array(n),d=new Uint8Array(n),m=0;for(let p=0;p<n;p+=1){let f=t.start[p]??0;r[p]=f,i[p]=f+(t.dur[p]??0);let x=t.row[p]??0;o[p]=x,m=Math.max(m,x+1);let P=t.name[p]??0;s[p]=P,d[p]=e[P]??0}let[u,c]=at(o,m);An(u,c,r);let[a,h]=at(d,40);return{size:n,start:r,end:i,row:o,name:s,count:Float64Array.from(t.count),eventId:Float64Array.from(t.id),byColor:a,colorOffsets:h,byRow:u,rowOffsets:c}}function lt(t,e){let n=Uint8Array.from(t.names,ze);return{start:t.start,end:t.end,nsPerPx:t.ns_per_px,ranksKey:e,names:t.names,lanes:new Map(t.lanes.map(r=>[r.id,Ln(r.boxes,n)])),counters:new Map(t.counters.map(r=>[r.id,r])),flows:t.flows}}function dt(t,e,n,r){let i=t.rowOffsets[e],o=t.rowOffsets[e+1];if(i===void 0||o===void 0)return-1;let s=i,d=o;for(;s<d;){let c=s+d>>1;(t.start[t.byRow[c]??0]??0)<=n+r?s=c+1:d=c}let m=-1,u=1/0;for(let c=s-1;c>=Math.max(i,s-2);c-=1){let a=t.byRow[c]??0,h=t.start[a]??0,p=t.end[a]??0,f=n<h?h-n:n>p?n-p:0;f<=r&&f<u&&(m=a,u=f)}return m}var _n=60,ut=8192,Pn=1.5;function ht(t){return t===null?"all":t.join(",")}function ct(t,e){if(t===null||t.ranksKey!==ht(e.ranks))return!1;let{window:n,extent:r}=e,i=(n.end-n.start)/e.widthPx;return t.start<=Math.max(n.start,r.start)&&t.end>=Math.min(n.end,r.end)&&t.nsPerPx<=i*Pn}function Cn(t){let{window:e,extent:n}=t,r=e.end-e.start,i=r/t.widthPx,o=Math.max(0,Math.min(r/2,(ut*i-r)/2)),s=Math.floor(Math.max(n.start,e.start-o)),d=Math.ceil(Math.min(n.end,e.end+o)),m=Math.min(ut,Math.max(1,Math.round((d-s)/i)));return{start:s,end:Math.max(d,s+1),widthPx:m,ranks:t.ranks,nsPerPx:(d-s)/m,ranksKey:ht(t.ranks)}}var j=class{constructor(e,n){this.run=e;this.listener=n}run;listener;timer=0;inFlight=null;want(e,n){clearTimeout(this.timer),!(ct(n,e)||ct(this.inFlight?.query??null,e))&&(this.timer=window.setTimeout(()=>this.fetch(e),_n))}refetch(e){clearTimeout(this.timer),this.fetch(e)}cancel(){clearTimeout(this.timer),this.inFlight?.controller.abort(),this.inFlight=null}fetch(e){this.cancel();let n=Cn(e),r=new AbortController;this.inFlight={query:n,controller:r},Xe(this.run,n,r.signal,this.listener.onProgress).then(i=>{r.signal.aborted||(this.inFlight=null,this.listener.onTile(lt(i,n.ranksKey)))},i=>{r.signal.aborted||(this.inFlight=null,this.listener.onError(i))})}};function pe(t){return t.end-t.start}function F(t,e){let n=pe(e),r=Math.min(n,Math.max(200,pe(t))),i=Math.min(Math.max(t.start,e.start),e.end-r);return{start:i,end:i+r}}function mt(t,e,n,r){let i=e-(e-t.start)*n,o=e+(t.end-e)*n;return F({start:i,end:o},r)}function pt(t,e,n){return F({start:t.start+e,end:t.end+e},n)}function X(t,e,n,r){let i=Math.max(e-t,200)*n;return F({start:t-i,end:e+i},r)}function ft(t,e,n,r){if(e>=t.start&&n<=t.end)return t;let i=pe(t);if(n-e>i*.8)return X(e,n,.1,r);let o=(e+n)/2;return F({start:o-i/2,end:o+i/2},r)}function bt(t,e){let n=Math.max(e-t,200)*.02;return{start:t-n,end:e+n}}var Nn=200,Dn=2,$n=1;function gt(t,e){return t!==null&&e!==null&&t.rank===e.rank&&t.id===e.id}var Z=class{constructor(e,n){this.run=e;this.window=n.window,this.selected=n.selected,this.enabledRanks=n.enabledRanks&&new Set(n.enabledRanks);let r=this.canvas.getContext("2d",{alpha:!1});if(r===null)throw new Error("This browser cannot draw on a canvas.");this.ctx=r,this.theme=le(),this.selected&&(this.canvas.dataset.selected=`${this.selected.rank}:${this.selected.id}`),this.search=new q({initialText:n.search,search:(o,s)=>Ue(this.run,o,this.enabledRankList(),s),onMatch:o=>this.showMatch(o),onTextChange:o=>D({search:o}),viewStart:()=>this.window?.start??0}),this.tiles=new j(e,{onTile:o=>{this.tile=o,this.status.hidden=!0,this.scheduleDraw()},onProgress:o=>this.showProgress(o),onError:o=>this.showError(o)});let i=l("button",{type:"button","data-testid":"timeline-reset"},"Reset zoom");i.addEventListener("click",()=>this.setWindow(this.bounds)),this.scroller.append(this.canvas,this.spacer),this.scroller.addEventListener("scroll",()=>this.scheduleDraw()),this.element=l("div",{class:"timeline","data-testid":"timeline","data-run":e},l("div",{class:"timeline-toolbar"},this.rankToggleGroup,this.stepPicker,i,this.search.element,l("span",{class:"muted hint"},"W/S or wheel: zoom · A/D or drag: pan · Esc: deselect")),l("div",{class:"timeline-stage"},this.scroller,this.tooltip,this.status),this.details),this.attachObservers(),et(this.canvas,{zoomAt:(o,s)=>this.zoomAt(o,s),panBy:o=>this.panBy(o),timeAreaWidth:()=>this.timeAreaWidth(),clickAt:(o,s)=>this.clickAt(o,s),hoverAt:(o,s)=>this.hoverAt(o,s),hoverEnd:()=>this.setHover(null,null),escape:()=>this.select(null,!1)})}run;element;loaded=!1;meta=null;layout={bands:[],lanes:new Map,height:0};bounds={start:0,end:1};window;enabledRanks;collapsedRanks=new Set;tile=null;selected;selectedEvent=null;flowPeer=null;hovered=null;selectionRequest=new AbortController;canvas=l("canvas",{class:"timeline-canvas",tabindex:0,"data-testid":"timeline-canvas","aria-label":"Timeline: W/S or the wheel zoom, A/D or dragging pan, click selects"});ctx;theme;scroller=l("div",{class:"timeline-scroller"});spacer=l("div",{class:"timeline-spacer"});tooltip=l("div",{class:"chart-tooltip timeline-tooltip",hidden:!0});status=l("div",{class:"timeline-status","data-testid":"timeline-status",hidden:!0});details=l("section",{class:"timeline-details","data-testid":"timeline-details","aria-live":"polite"},l("p",{class:"muted"},"Click an event to see its details."));rankToggleGroup=l("div",{class:"rank-toggles",role:"group","aria-label":"Ranks"});stepPicker=l("label",{class:"step-picker"});search;tiles;observers=[];size={width:0,height:0,dpr:1};drawPending=!1;hashTimer=0;async load(e,n){let r=await Fe(this.run,e,n);e.aborted||(this.meta=r,this.loaded=!0,this.bounds=bt(r.start,r.end),this.relayout(),this.setWindow(this.window??this.bounds),this.stepPicker.replaceChildren(Ve(r.steps,i=>this.setWindow(X(i.start,i.end,.02,this.bounds)))),this.tile=null,this.tiles.cancel(),this.requestTiles(!0),this.selected&&this.select(this.selected,!1),this.search.refresh())}dispose(){this.tiles.cancel(),this.selectionRequest.abort();for(let e of this.observers)e.disconnect()}attachObservers(){let e=new ResizeObserver(()=>this.resize());e.observe(this.scroller);let n=new MutationObserver(()=>{this.theme=le(),this.scheduleDraw()});n.observe(document.documentElement,{attributes:!0,attributeFilter:["data-theme"]}),this.observers.push(e,n)}enabledRankList(){return this.enabledRanks&&[...this.enabledRanks].sort((e,n)=>e-n)}isRankEnabled(e){return this.enabledRanks===null||this.enabledRanks.has(e)}relayout(){let e=this.meta;if(!e)return;let n=new Set(e.ranks.map(r=>r.rank).filter(r=>this.isRankEnabled(r)));this.layout=je(e,n,this.collapsedRanks),this.rankToggleGroup.replaceChildren(...Ke(e.ranks,r=>this.isRankEnabled(r),r=>this.toggleRank(r))),this.resizeSpacer(),this.scheduleDraw()}toggleRank(e){let n=this.meta?.ranks.map(i=>i.rank)??[],r=this.enabledRanks??new Set(n);r.has(e)?r.delete(e):r.add(e),this.enabledRanks=n.every(i=>r.has(i))?null:r,D({enabledRanks:this.enabledRankList()}),this.relayout(),this.requestTiles(!1),this.search.refresh()}toggleCollapsed(e){this.collapsedRanks.has(e)?this.collapsedRanks.delete(e):this.collapsedRanks.add(e),this.relayout(),this.requestTiles(!1)}setWindow(e){this.window=F(e,this.bounds),this.canvas.dataset.start=String(Math.round(this.window.start)),this.canvas.dataset.end=String(Math.round(this.window.end)),this.scheduleDraw(),this.requestTiles(!1),clearTimeout(this.hashTimer),this.hashTimer=window.setTimeout(()=>D({window:this.window}),Nn)}requestTiles(e){let n=this.meta,r=this.window,i=this.timeAreaWidth();if(!n||!r||i<=0)return;let o=Ye(this.layout);if(o.length===0)return;let s=o.length===n.ranks.length,d={window:r,widthPx:i,ranks:s?null:o,extent:{start:n.start,end:n.end}};e?this.tiles.refetch(d):this.tiles.want(d,this.tile)}timeAreaWidth(){return Math.max(0,this.size.width-220)}timeAt(e){let n=this.window??this.bounds;return n.start+(e-220)/Math.max(1,this.timeAreaWidth())*(n.end-n.start)}nsPerPx(){let e=this.window??this.bounds;return(e.end-e.start)/Math.max(1,this.timeAreaWidth())}zoomAt(e,n){let r=this.window;if(!r)return;let i=e===null?(r.start+r.end)/2:this.timeAt(e);this.navigateTo(mt(r,i,n,this.bounds))}panBy(e){this.window&&this.navigateTo(pt(this.window,e*this.nsPerPx(),this.bounds))}navigateTo(e){(e.start!==this.window?.start||e.end!==this.window.end)&&this.setWindow(e)}select(e,n){this.selectionRequest.abort(),this.selectionRequest=new AbortController;let r=this.selectionRequest.signal;if(gt(e,this.selectedEvent)||(this.selectedEvent=null,this.flowPeer=null),this.selected=e,e?this.canvas.dataset.selected=`${e.rank}:${e.id}`:delete this.canvas.dataset.selected,D({selected:e}),this.scheduleDraw(),e===null){this.details.replaceChildren(l("p",{class:"muted"},"Click an event to see its details."));return}this.loadSelection(e,n,r)}async loadSelection(e,n,r){try{let i=await ae(this.run,e,r);if(r.aborted)return;if(this.selectedEvent=i,n&&this.window&&this.setWindow(ft(this.window,i.start,i.start+i.dur,this.bounds)),this.showDetails(),this.scheduleDraw(),i.flow){if(this.flowPeer=await ae(this.run,i.flow,r),r.aborted)return;this.showDetails(),this.scheduleDraw()}}catch(i){if(r.aborted)return;this.details.replaceChildren(l("p",{class:"error",role:"alert"},`Could not load the event: ${i instanceof S?i.message:String(i)}`))}}showDetails(){let e=this.selectedEvent;e&&this.details.replaceChildren(qe({event:e,peer:this.flowPeer,zero:this.meta?.start??0,laneLabel:n=>this.laneLabel(n),onJump:n=>{this.revealRank(n.rank),this.select(n,!0)},onZoom:()=>this.setWindow(X(e.start,e.start+e.dur,.5,this.bounds))}))}laneLabel(e){for(let n of this.meta?.ranks??[]){let r=n.lanes.find(i=>i.id===e);if(r)return r.label}return e}revealRank(e){this.collapsedRanks.delete(e)&&(this.relayout(),this.requestTiles(!1))}showMatch(e){this.revealRank(e.rank),this.setWindow(X(e.start,e.start+e.dur,$n,this.bounds)),this.select({rank:e.rank,id:e.id},!1)}hitTest(e,n){if(n<28)return null;let r=Ze(this.layout,n-28+this.scroller.scrollTop);if(!r)return null;if(r.type==="rank")return{rankBand:r.rank.rank};let i=this.timeAt(e),o=Je(r,n-28+this.scroller.scrollTop),s=this.tile?.lanes.get(r.lane.id),d=s&&o>=0&&e>=220?dt(s,o,i,Dn*this.nsPerPx()):-1;return{band:r,box:d,row:o,time:i}}clickAt(e,n){this.canvas.focus();let r=this.hitTest(e,n);if(r&&"rankBand"in r){this.toggleCollapsed(r.rankBand);return}let i=r&&this.tile?.lanes.get(r.band.lane.id);if(!r||!i||r.box<0){e>=220&&this.select(null,!1);return}let o=i.count[r.box]??1,s=i.start[r.box]??0,d=i.end[r.box]??0;o>1?this.setWindow(X(s,d,.1,this.bounds)):this.select({rank:r.band.rank,id:i.eventId[r.box]??-1},!1)}hoverAt(e,n){let r=this.hitTest(e,n);if(r===null)return this.setHover(null,null);if("rankBand"in r){let h=this.meta?.ranks.find(p=>p.rank===r.rankBand);return this.canvas.style.cursor="pointer",this.setHover(null,h?[`rank ${h.rank} (click to ${this.collapsedRanks.has(h.rank)?"expand":"collapse"})`,...Oe(h.alignment)]:null,e,n)}this.canvas.style.cursor="";let i=r.band.lane;if(e<220)return this.setHover(null,[i.label,`rank ${r.band.rank} · ${i.kind}`],e,n);if(i.kind==="counter")return this.setHover(null,this.counterTooltip(r),e,n);let o=this.tile?.lanes.get(i.id);if(!o||r.box<0)return this.setHover(null,null);let s=o.start[r.box]??0,d=o.end[r.box]??0,m=o.count[r.box]??1,u=this.tile?.names[o.name[r.box]??0]??"",c=this.meta?.start??0,a=m>1?[`${T(m)} events`,`longest: ${u}`,`over ${k(d-s)} from ${U(s-c)}`,"click to zoom in"]:[u,`duration ${k(d-s)}`,`start ${U(s-c)}`];this.setHover({lane:i.id,row:r.row,start:s,end:d},a,e,n)}counterTooltip(e){let n=this.tile?.counters.get(e.band.lane.id);if(!n)return null;let r=-1;for(let o=0;o<n.t.length&&(n.t[o]??0)<=e.time;o+=1)r=o;let i=n.value[r];return i===void 0?null:[e.band.lane.label,me(e.band.lane.label,i)]}setHover(e,n,r=0,i=0){if(this.hovered=e,this.scheduleDraw(),n===null){this.tooltip.hidden=!0;return}let[o,...s]=n;this.tooltip.replaceChildren(l("div",{class:"tooltip-title"},o??""),...s.map(m=>l("div",{},m))),this.tooltip.hidden=!1;let d=r+16+this.tooltip.offsetWidth>this.size.width;this.tooltip.style.left=`${d?r-12-this.tooltip.offsetWidth:r+16}px`,this.tooltip.style.top=`${i+16}px`}showProgress(e){let n=Math.round(Math.min(1,Math.max(0,e.fraction))*100);this.status.removeAttribute("role"),this.status.textContent=`Reading run files… ${n} % (${_(e.done_bytes)} of ${_(e.total_bytes)})`,this.status.hidden=!1}showError(e){let n=e instanceof S?`${e.message} (${e.code})`:String(e);this.status.setAttribute("role","alert"),this.status.textContent=`Could not load this part of the timeline: ${n}`,this.status.hidden=!1}resize(){let e=this.scroller.clientWidth,n=this.scroller.clientHeight,r=window.devicePixelRatio||1;e===this.size.width&&n===this.size.height&&r===this.size.dpr||(this.size={width:e,height:n,dpr:r},!(e===0||n===0)&&(this.canvas.style.width=`${e}px`,this.canvas.style.height=`${n}px`,this.canvas.width=Math.round(e*r),this.canvas.height=Math.round(n*r),this.resizeSpacer(),this.requestTiles(!1),this.drawNow()))}resizeSpacer(){this.spacer.style.height=`${Math.max(0,28+this.layout.height-this.size.height)}px`}scheduleDraw(){this.drawPending||(this.drawPending=!0,requestAnimationFrame(()=>this.drawNow()))}drawNow(){this.drawPending=!1;let{width:e,height:n,dpr:r}=this.size;e===0||n===0||!this.window||(this.ctx.setTransform(r,0,0,r,0,0),st(this.ctx,{width:e,height:n,scrollTop:this.scroller.scrollTop,window:this.window,zero:this.meta?.start??0,layout:this.layout,tile:this.tile,theme:this.theme,hovered:this.hovered,...this.selectionSpans(),emptyMessage:this.emptyMessage()}))}emptyMessage(){return this.layout.bands.length>0?null:this.meta?.ranks.length?"Every rank is hidden: turn one on with the rank buttons above.":"This run has no timeline events: no MyTimer spans and no profiler traces yet."}selectionSpans(){let e=this.selectedEvent;if(!e||!gt(e,this.selected))return{selected:null,flow:null};let n=o=>({lane:o.lane,row:o.row,start:o.start,end:o.start+o.dur}),r=n(e),i=this.flowPeer;return i?e.kind==="runtime"?{selected:r,flow:{from:r,to:n(i)}}:{selected:r,flow:{from:n(i),to:r}}:{selected:r,flow:null}}};var z=null,fe=!1;function Hn(t){if(z?.run===t)return z;z?.dispose();let e=fe?se:Ie();return fe&&D(se),fe=!0,z=new Z(t,e),z}var vt={id:"timeline",label:"Timeline",usesRankSelect:!1,async show({run:t,signal:e,refresh:n,onProgress:r}){let i=Hn(t);return(n||!i.loaded)&&await i.load(e,r),i.element}};var $=[$e,vt];var be="";function In(t){let e=$[0];if(e===void 0)throw new Error("no dashboards registered");return $.find(n=>n.id===t)??e}function Wn(t){let e=Math.round(Math.min(1,Math.max(0,t.fraction))*100),n=l("div",{class:"progress-bar"});return n.style.width=`${e}%`,l("div",{class:"progress","data-testid":"progress"},l("div",{class:"progress-track",role:"progressbar","aria-valuemin":0,"aria-valuemax":100,"aria-valuenow":e},n),l("p",{},`Reading run files… ${e} % (${_(t.done_bytes)} of ${_(t.total_bytes)})`))}function wt(t,e){let n=e instanceof S?`${e.message} (${e.code})`:String(e);return l("div",{class:"error","data-testid":"error",role:"alert"},l("strong",{},t),l("p",{},n))}function On(){return l("div",{class:"empty","data-testid":"empty"},l("h2",{},"No runs yet"),l("p",{},"This logdir holds no tb-perf runs. See the README quick start to record one with the collectors (or point TensorBoard at a torch.profiler trace directory), then press TensorBoard's reload button."))}function yt(t){return t instanceof DOMException&&t.name==="AbortError"}var J=class{runs=[];run;rank;dashboard;inFlight=new AbortController;runSelect=l("select",{"data-testid":"run-select","aria-label":"Run"});runStatus=l("span",{class:"badge","data-testid":"run-status"});rankSelect=l("select",{"data-testid":"rank-select","aria-label":"Rank"});rankLabel=l("label",{},"Rank ",this.rankSelect);tabs=$.map(e=>l("button",{type:"button",role:"tab",class:"tab","data-testid":`tab-${e.id}`},e.label));toolbar=l("header",{class:"toolbar",hidden:!0},l("nav",{class:"tabs",role:"tablist","aria-label":"Dashboards"},...this.tabs),l("label",{},"Run ",this.runSelect),this.runStatus,this.rankLabel);content=l("main",{class:"content"},l("p",{class:"muted"},"Loading runs…"));constructor(e){let n=N();this.run=n.get("run");let r=Number.parseInt(n.get("rank")??"",10);this.rank=Number.isInteger(r)?r:null,this.dashboard=In(n.get("dashboard")),this.showActiveTab(),this.tabs.forEach((i,o)=>i.addEventListener("click",()=>{let s=$[o];s===void 0||s===this.dashboard||(this.dashboard=s,this.showActiveTab(),this.saveSelection(),this.loadDashboard(this.restart(),!1))})),this.runSelect.addEventListener("change",()=>{this.run=this.runSelect.value,this.showSelectedRun(),this.loadDashboard(this.restart(),!0)}),this.rankSelect.addEventListener("change",()=>{this.rank=this.rankSelect.value===be?null:Number(this.rankSelect.value),this.saveSelection(),this.loadDashboard(this.restart(),!0)}),e.replaceChildren(l("div",{class:"app"},this.toolbar,this.content))}async reload(){let e=this.restart();try{this.runs=await ye(e)}catch(n){yt(n)||this.content.replaceChildren(wt("Could not list the runs",n));return}if(this.toolbar.hidden=this.runs.length===0,this.runs.length===0){this.run=null,this.content.replaceChildren(On());return}this.runSelect.replaceChildren(...this.runs.map(n=>l("option",{value:n.name},`${n.name} (${n.status})`))),this.runs.some(n=>n.name===this.run)||(this.run=this.runs[0]?.name??null),this.showSelectedRun(),await this.loadDashboard(e,!0)}restart(){return this.inFlight.abort(),this.inFlight=new AbortController,this.inFlight.signal}showActiveTab(){this.tabs.forEach((e,n)=>{let r=$[n]===this.dashboard;e.setAttribute("aria-selected",String(r)),e.classList.toggle("active",r)}),this.rankLabel.hidden=!this.dashboard.usesRankSelect}selectedRun(){return this.runs.find(e=>e.name===this.run)}showSelectedRun(){let e=this.selectedRun();e&&(this.runSelect.value=e.name,this.runStatus.textContent=e.status,this.runStatus.className=`badge status-${e.status}`,this.rank!==null&&!e.ranks.includes(this.rank)&&(this.rank=null),this.fillRankSelect(e.ranks.map(n=>({rank:n}))),this.saveSelection())}fillRankSelect(e){this.rankSelect.replaceChildren(l("option",{value:be},"All ranks"),...e.map(n=>l("option",{value:String(n.rank)},n.host?`rank ${n.rank} · ${n.host}`:`rank ${n.rank}`))),this.rankSelect.value=this.rank===null?be:String(this.rank)}saveSelection(){let e=this.dashboard===$[0];W({run:this.run,rank:this.rank===null?null:String(this.rank),dashboard:e?null:this.dashboard.id})}async loadDashboard(e,n){let r=this.run;if(r!==null){this.content.setAttribute("aria-busy","true");try{let i=await this.dashboard.show({run:r,rank:this.rank,signal:e,refresh:n,onProgress:o=>this.content.replaceChildren(Wn(o)),onRanks:o=>this.fillRankSelect(o)});e.aborted||this.content.replaceChildren(i)}catch(i){yt(i)||this.content.replaceChildren(wt(`Could not load run “${r}”`,i))}finally{e.aborted||this.content.removeAttribute("aria-busy")}}}};var Bn="experimental.DataReloaded";function Fn(t){if(typeof t!="string")return null;try{let e=JSON.parse(t);return typeof e=="object"&&e!==null&&"type"in e&&"id"in e?e:null}catch{return null}}function xt(t){if(window.parent===window)return;let e=new MessageChannel;e.port1.onmessage=n=>{let r=Fn(n.data);if(r===null||r.isReply)return;let i={type:r.type,id:r.id,payload:null,error:null,isReply:!0};e.port1.postMessage(JSON.stringify(i)),r.type===Bn&&t()};try{window.parent.postMessage("experimental.bootstrap","*",[e.port2])}catch{}}var kt=`/* Colours follow TensorBoard: white / #303030 backgrounds, orange accent. theme.ts sets data-theme. */
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

/* Dashboard tabs */
.tabs {
  display: flex;
  gap: 2px;
}
.tab {
  font: inherit;
  color: var(--fg-muted);
  background: none;
  border: 0;
  border-bottom: 2px solid transparent;
  padding: 4px 10px;
  cursor: pointer;
}
.tab:hover {
  color: var(--fg);
}
.tab.active {
  color: var(--fg);
  border-bottom-color: var(--accent);
}
.tab:focus-visible,
.timeline button:focus-visible,
.timeline select:focus-visible,
.search-input:focus-visible,
.timeline-canvas:focus-visible {
  outline: 2px solid var(--accent);
  outline-offset: 1px;
}

/* Timeline: fills the iframe below the toolbar; the details panel takes what the lanes leave. */
.app:has(> .content > .timeline) {
  display: flex;
  flex-direction: column;
  height: 100vh;
}
.content:has(> .timeline) {
  flex: 1 1 auto;
  min-height: 0;
  display: flex;
  padding-bottom: 8px;
}
.timeline {
  flex: 1 1 auto;
  min-width: 0;
  display: flex;
  flex-direction: column;
  gap: 8px;
}
.timeline-toolbar {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 14px;
}
.timeline button,
.timeline select,
.search-input {
  font: inherit;
  color: var(--fg);
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 4px;
  padding: 3px 8px;
}
.timeline button {
  cursor: pointer;
}
.timeline button:hover {
  border-color: var(--fg-muted);
}
.rank-toggles {
  display: flex;
  gap: 4px;
}
.rank-toggle[aria-pressed="true"] {
  background: var(--row-selected);
  border-color: var(--accent);
}
.rank-toggle[aria-pressed="false"] {
  color: var(--fg-muted);
  text-decoration: line-through;
}
.search {
  display: flex;
  align-items: center;
  gap: 4px;
}
.search-input {
  width: 22ch;
}
.search-count {
  min-width: 9ch;
  color: var(--fg-muted);
  font-variant-numeric: tabular-nums;
}
.hint {
  margin: 0;
  font-size: 12px;
}
.timeline-stage {
  position: relative;
  flex: 1 1 auto;
  min-height: 240px;
  border: 1px solid var(--border);
}
.timeline-scroller {
  position: absolute;
  inset: 0;
  overflow-y: auto;
  overflow-x: hidden;
}
.timeline-canvas {
  position: sticky;
  top: 0;
  display: block;
  touch-action: none;
  user-select: none;
}
.timeline-tooltip {
  max-width: 60ch;
  white-space: normal;
  overflow-wrap: anywhere;
}
.timeline-status {
  position: absolute;
  right: 8px;
  bottom: 8px;
  max-width: 60%;
  padding: 4px 10px;
  background: var(--tooltip-bg);
  border: 1px solid var(--border);
  border-radius: 4px;
  box-shadow: 0 2px 6px rgb(0 0 0 / 0.2);
}
.timeline-status[role="alert"] {
  background: var(--error-bg);
  border-color: var(--error-border);
}
.timeline-details {
  flex: 0 1 auto;
  max-height: 35%;
  min-height: 48px;
  overflow: auto;
  border: 1px solid var(--border);
  padding: 6px 12px;
}
.timeline-details .muted {
  margin: 0;
}
.details-header {
  flex-basis: 100%;
  display: flex;
  align-items: baseline;
  gap: 16px;
}
.details-title {
  margin: 0;
  overflow-wrap: anywhere;
}
.details-body {
  display: flex;
  flex-wrap: wrap;
  align-items: flex-start;
  gap: 4px 32px;
}
.details-table {
  border-collapse: collapse;
  font-variant-numeric: tabular-nums;
}
.details-table caption {
  text-align: left;
  color: var(--fg-muted);
}
.details-table th,
.details-table td {
  padding: 1px 12px 1px 0;
  text-align: left;
  vertical-align: top;
}
.details-table th {
  font-weight: 400;
  color: var(--fg-muted);
  white-space: nowrap;
}
.details-table td {
  overflow-wrap: anywhere;
  max-width: 70ch;
}
.timeline .link-button {
  color: var(--accent);
  background: none;
  border: 0;
  padding: 0;
  text-align: left;
}
.timeline .link-button:hover {
  text-decoration: underline;
}
`;function Ti(){document.head.append(l("style",{},kt)),Ce();let t=new J(document.body);xt(()=>{t.reload()}),t.reload()}export{Ti as render};

var I=class extends Error{constructor(n,r){super(r);this.code=n}code};function ge(e){return typeof e=="object"&&e!==null}function Mn(e){return ge(e)&&ge(e.progress)?e.progress:null}function Rn(e,t){let n=ge(t)?t.error:void 0;return ge(n)&&typeof n.message=="string"?new I(String(n.code??"error"),n.message):new I("http_error",`The server answered HTTP ${e}.`)}function En(e,t){return new Promise((n,r)=>{let s=setTimeout(n,e);t.addEventListener("abort",()=>{clearTimeout(s),r(t.reason)},{once:!0})})}async function An(e,t){try{return await fetch(e,{signal:t,headers:{Accept:"application/json"}})}catch(n){throw t.aborted?n:new I("unreachable","The TensorBoard server did not answer. Is it still running?")}}async function E(e,t,n){for(;;){let r=await An(e,t),s=await r.json().catch(()=>null),o=r.status===202?Mn(s):null;if(o){n?.(o),await En(500,t);continue}if(!r.ok)throw Rn(r.status,s);if(s===null)throw new I("bad_response","The server sent a response that is not JSON.");return s}}function O(e,t={}){let n=new URLSearchParams({run:e});for(let[r,s]of Object.entries(t))s!==null&&n.set(r,String(s));return n.toString()}function Ye(e){return E("./runs",e)}function je(e,t,n,r){let s=new URLSearchParams({run:e});return t!==null&&s.set("rank",String(t)),E(`./summary?${s}`,n,r)}function Je(e,t){for(let[n,r]of Object.entries(t))r===void 0||r===!1||e.setAttribute(n,r===!0?"":String(r))}function a(e,t={},...n){let r=document.createElement(e);Je(r,t);for(let s of n)s!=null&&s!==!1&&r.append(s);return r}var Ln="http://www.w3.org/2000/svg";function M(e,t={},...n){let r=document.createElementNS(Ln,e);Je(r,t);for(let s of n)s!=null&&s!==!1&&r.append(s);return r}var A={top:10,right:16,bottom:38,left:68},$n=90,Pn=40;function Ze(e,t,n,r){let o=(t-e||Math.abs(t)||1)/Math.max(1,n),i=10**Math.floor(Math.log10(o)),l=[1,2,5,10].map(d=>d*i).find(d=>d>=o)??10*i;r&&(l=Math.max(1,Math.round(l)));let m=Math.floor(e/l)*l,c=Math.max(Math.ceil(t/l)*l,m+l),u=[];for(let d=0;m+d*l<=c+l/2;d+=1)u.push(Number((m+d*l).toPrecision(12)));return{min:m,max:c,ticks:u}}function tt(e,t){let n=0,r=e.length;for(;n<r;){let s=n+r>>1;(e[s]??1/0)<t?n=s+1:r=s}return n}function Cn(e,t){let n=null;for(let{x:r}of e){let s=tt(r,t);for(let o of[r[s-1],r[s]])o!==void 0&&(n===null||Math.abs(o-t)<Math.abs(n-t))&&(n=o)}return n}function Qe(e){let t=1/0,n=-1/0;for(let r of e)r<t&&(t=r),r>n&&(n=r);return[t,n]}function*et(e,t){for(let n of e)yield*n[t]}function Dn(e,t,n){let{series:r,height:s}=e,o=t-A.left-A.right,i=s-A.top-A.bottom,[l,m]=Qe(et(r,"x")),[,c]=Qe(et(r,"y")),u=Ze(l,m,o/$n,!0),d=Ze(0,c,i/Pn,!1),h=S=>A.left+(S-u.min)/(u.max-u.min)*o,p=S=>A.top+(1-(S-d.min)/(d.max-d.min))*i,f=A.top+i,v=M("svg",{width:t,height:s,class:"chart-svg",role:"img"}),T=e.yTickFormat(d.ticks);for(let S of d.ticks){let N=p(S).toFixed(1);v.append(M("line",{class:"chart-grid",x1:A.left,x2:t-A.right,y1:N,y2:N}),M("text",{class:"chart-tick",x:A.left-6,y:N,"text-anchor":"end","dominant-baseline":"middle"},T(S)))}for(let S of u.ticks)v.append(M("text",{class:"chart-tick",x:h(S).toFixed(1),y:f+16,"text-anchor":"middle"},e.formatX(S)));if(v.append(M("line",{class:"chart-axis",x1:A.left,x2:t-A.right,y1:f,y2:f}),M("text",{class:"chart-label",x:A.left+o/2,y:s-4,"text-anchor":"middle"},e.xLabel)),e.markers?.length){let S=M("g",{class:"chart-markers","data-testid":`${e.testId}-markers`});for(let N of e.markers){if(N<u.min||N>u.max)continue;let W=h(N).toFixed(1);S.append(M("line",{class:"chart-mark",x1:W,x2:W,y1:A.top,y2:f}))}v.append(S)}for(let S of r){let N=S.x.map((W,L)=>`${h(W).toFixed(1)},${p(S.y[L]??0).toFixed(1)}`);v.append(N.length===1?M("circle",{cx:h(S.x[0]??0),cy:p(S.y[0]??0),r:3,fill:S.color,"data-series":S.label}):M("polyline",{class:S.dashed?"chart-line chart-dashed":"chart-line",points:N.join(" "),stroke:S.color,"data-series":S.label}))}let w=M("line",{class:"chart-guide",y1:A.top,y2:f,visibility:"hidden"}),k=M("g"),G=M("rect",{x:A.left,y:A.top,width:o,height:i,class:"chart-hover"});v.append(w,k,G);let j=()=>{w.setAttribute("visibility","hidden"),k.replaceChildren(),n.hidden=!0};return G.addEventListener("pointerleave",j),G.addEventListener("pointermove",S=>{let N=v.getBoundingClientRect().left,W=u.min+(S.clientX-N-A.left)/o*(u.max-u.min),L=Cn(r,W);if(L===null)return j();let fe=[];k.replaceChildren();for(let U of r){let re=tt(U.x,L),b=U.y[re];U.x[re]!==L||b===void 0||(k.append(M("circle",{cx:h(L),cy:p(b),r:3.5,fill:U.color,class:"chart-marker"})),fe.push(a("div",{class:"tooltip-row"},a("span",{class:"swatch",style:`background:${U.color}`}),`${U.label}: ${e.formatY(b)}`)))}w.setAttribute("x1",h(L).toFixed(1)),w.setAttribute("x2",h(L).toFixed(1)),w.setAttribute("visibility","visible"),n.replaceChildren(a("div",{class:"tooltip-title"},`${e.xLabel} ${e.formatX(L)}`),...fe),n.hidden=!1;let ne=12,be=h(L)+ne+n.offsetWidth>t;n.style.left=`${be?h(L)-ne-n.offsetWidth:h(L)+ne}px`,n.style.top=`${A.top}px`}),v}function B(e){let t=a("div",{class:"chart-tooltip",role:"tooltip","data-testid":`${e.testId}-tooltip`});t.hidden=!0;let n=a("div",{class:"chart-plot",style:`min-height:${e.height}px`},t),r=a("ul",{class:"chart-legend"},...e.series.map(o=>a("li",{},a("span",{class:"swatch",style:`background:${o.color}`}),o.label)),e.markers?.length&&e.markerLabel?a("li",{},a("span",{class:"swatch chart-mark-swatch"}),e.markerLabel):null),s=0;return new ResizeObserver(()=>{let o=n.clientWidth;o===0||o===s||(s=o,n.replaceChildren(Dn(e,o,t),t))}).observe(n),a("figure",{class:"chart","data-testid":e.testId},n,r)}var Nn=new Intl.NumberFormat("en-US");function le(e){let t=Math.abs(e),n=t>=100?0:t>=10?1:2;return new Intl.NumberFormat("en-US",{minimumFractionDigits:n,maximumFractionDigits:n}).format(e)}function g(e){if(e==null||!Number.isFinite(e))return"—";let t=Math.abs(e);return t>=1e9?`${le(e/1e9)} s`:t>=1e6?`${le(e/1e6)} ms`:t>=1e3?`${le(e/1e3)} µs`:`${Math.round(e)} ns`}var nt=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]];function ve(e){let t=Math.max(0,...e.map(Math.abs)),[n,r]=nt.find(([i])=>t>=i)??[1,"ns"],s=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/n:1,o=Math.min(3,Math.max(0,-Math.floor(Math.log10(s))));return i=>`${(i/n).toFixed(o)} ${r}`}function y(e){return e==null?"—":Nn.format(e)}function J(e){return e==null||!Number.isFinite(e)?"—":e>0&&e<.05?"<0.1 %":`${e.toFixed(1)} %`}function q(e){let t=["B","KB","MB","GB","TB"],n=e,r=0;for(;n>=1e3&&r<t.length-1;)n/=1e3,r+=1;return r===0?`${e} B`:`${le(n)} ${t[r]}`}function Z(e){let[t,n]=nt.find(([s])=>Math.abs(e)>=s)??[1,"ns"],r=Math.round(Math.log10(t));return`${(e/t).toFixed(r)} ${n}`}var rt=[[1024**4,"TiB"],[1024**3,"GiB"],[1024**2,"MiB"],[1024,"KiB"],[1,"B"]];function x(e){if(e==null||!Number.isFinite(e))return"—";let[t,n]=rt.find(([r])=>Math.abs(e)>=r)??[1,"B"];return t===1?`${Math.round(e)} B`:`${le(e/t)} ${n}`}function se(e){let t=Math.max(0,...e.map(Math.abs)),[n,r]=rt.find(([i])=>t>=i)??[1,"B"],s=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/n:1,o=Math.min(3,Math.max(0,-Math.floor(Math.log10(s))));return i=>`${(i/n).toFixed(o)} ${r}`}function oe(e){return t=>{let n=t.length>1?Math.abs((t[1]??0)-(t[0]??0)):1,r=Math.min(3,Math.max(0,-Math.floor(Math.log10(n||1))));return s=>`${s.toFixed(r)}${e}`}}function H(){return new URLSearchParams(location.hash.slice(1))}function P(e){let t=H();for(let[r,s]of Object.entries(e))s===null?t.delete(r):t.set(r,s);let n=new URL(location.href);n.hash=t.toString(),history.replaceState(history.state,"",n.href)}var Hn={asc:"ascending",desc:"descending"},In={asc:" ▲",desc:" ▼"},On={asc:"desc",desc:"asc"};function Fn(e,t){return typeof e=="number"&&typeof t=="number"?e-t:String(e).localeCompare(String(t))}function Wn(e,t,n){let r=n==="asc"?1:-1;return[...e].sort((s,o)=>{let i=t.value(s),l=t.value(o);return i===null||l===null?i===l?0:i===null?1:-1:r*Fn(i,l)})}function Bn(e){return e.numeric?"desc":"asc"}function F(e){let{columns:t,testId:n}=e,r=e.sort,s=a("table",{class:"data-table","data-testid":n}),o=a("tr"),i=a("tbody");s.append(a("thead",{},o),i);let l=()=>{o.replaceChildren(...t.map(c=>{let u=r?.key===c.key?r.direction:void 0,d=a("th",{class:c.numeric?"numeric":void 0,title:c.title,"aria-sort":u&&Hn[u],"data-column":c.key});if(!r)return d.append(c.label),d;let h=u?In[u]:"",p=a("button",{type:"button",class:"sort-button"},c.label+h);return p.addEventListener("click",()=>{let f=u===void 0?Bn(c):On[u];r={key:c.key,direction:f},e.onSortChange?.(r),l(),m()}),d.append(p),d}))},m=()=>{let c=r&&t.find(d=>d.key===r?.key),u=r&&c?Wn(e.rows,c,r.direction):e.rows;i.replaceChildren(...u.map(d=>a("tr",{"data-testid":e.rowTestId,"data-name":e.rowName(d),class:e.rowClass?.(d)},...t.map(h=>{let p=h.value(d);return a("td",{class:h.numeric?"numeric":void 0,"data-column":h.key,"data-value":p===null?void 0:String(p)},h.render?h.render(d):h.format?h.format(d):String(p??"—"))}))))};return l(),m(),s}function Ce(e){document.documentElement.dataset.theme=e?"dark":"light"}function Gn(){if(window.parent===window)return null;try{return window.parent.document.body}catch{return null}}function ot(){let e=Gn();if(e){let n=()=>Ce(e.classList.contains("dark-mode"));n(),new MutationObserver(n).observe(e,{attributes:!0,attributeFilter:["class"]});return}let t=window.matchMedia("(prefers-color-scheme: dark)");Ce(t.matches),t.addEventListener("change",n=>Ce(n.matches))}var st=["#4e79a7","#f28e2b","#e15759","#76b7b2","#59a14f","#edc948","#b07aa1","#ff9da7","#9c755f","#bab0ac"];function C(e){return st[Math.max(0,e)%st.length]??"#888"}function at(e,t,n){return E(`./findings?${O(e)}`,t,n)}function it(e,t,n,r){return E(`./breakdown?${O(e,{rank:t})}`,n,r)}function we(e,t,n,r,s,o){let i=`./operators?${O(e,{rank:t,group_by:n,limit:r})}`;return E(i,s,o)}function ye(e,t,n,r,s){return E(`./kernels?${O(e,{rank:t,limit:n})}`,r,s)}function lt(e,t,n,r){return E(`./modules?${O(e,{rank:t})}`,n,r)}function dt(e,t,n,r,s){return E(`./module_steps?${O(e,{rank:t,path:n,phase:r})}`,s)}var Xn=1e3,ct=(e,t,n="")=>e===null?"—":`${e.toFixed(t)}${n}`,ut=[{key:"name",label:"kernel",numeric:!1,value:e=>e.name},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>y(e.calls)},{key:"total_ns",label:"total",numeric:!0,value:e=>e.total_ns,format:e=>g(e.total_ns)},{key:"mean_ns",label:"mean",numeric:!0,value:e=>e.mean_ns,format:e=>g(e.mean_ns)},{key:"max_ns",label:"max",numeric:!0,value:e=>e.max_ns,format:e=>g(e.max_ns)},{key:"pct_of_kernel_time",label:"% of GPU time",numeric:!0,value:e=>e.pct_of_kernel_time,format:e=>`${e.pct_of_kernel_time.toFixed(1)} %`},{key:"tensor_cores",label:"Tensor Cores",title:"Guessed from the kernel's name (docs/ANALYSIS.md)",numeric:!1,value:e=>e.tensor_cores?"yes":"no"},{key:"mean_est_occupancy_pct",label:"est. occupancy",numeric:!0,value:e=>e.mean_est_occupancy_pct,format:e=>ct(e.mean_est_occupancy_pct,1," %")},{key:"est_sm_efficiency",label:"est. SM efficiency",numeric:!0,value:e=>e.est_sm_efficiency,format:e=>ct(e.est_sm_efficiency===null?null:e.est_sm_efficiency*100,1," %")}];function zn(){let e=H(),t=e.get("ksort"),n=e.get("kdir");return ut.some(r=>r.key===t)&&(n==="asc"||n==="desc")?{key:t,direction:n}:{key:"total_ns",direction:"desc"}}function Un(e){if(e.length===0)return a("p",{class:"muted"},"No GPU kernels in this run's traces.");let t=e.flatMap((n,r)=>{let s=BigInt(n.start_ns[0]??"0"),o=n.start_ns.map(l=>Number(BigInt(l)-s)),i=`rank ${n.rank} GPU ${n.device}`;return[{label:`${i} utilization`,color:C(2*r),x:o,y:n.utilization.map(l=>l*100)},{label:`${i} est. SM efficiency`,color:C(2*r+1),x:o,y:n.est_sm_efficiency.map(l=>l*100)}]});return B({series:t,height:220,xLabel:"time from the trace's start",formatX:g,formatY:n=>`${n.toFixed(1)} %`,yTickFormat:()=>n=>`${n} %`,testId:"gpu-utilization-chart"})}var mt={id:"kernels",label:"Kernels",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let s=await ye(e,t,Xn,n,r),o=s.devices.map(l=>`rank ${l.rank} GPU ${l.device}: ${l.tensor_core_pct.toFixed(1)} % of kernel time on Tensor Cores (by name)`),i=s.rows.length===0?a("p",{class:"muted"},"No GPU kernels in this run's traces."):F({columns:ut,rows:s.rows,testId:"kernel-table",rowTestId:"kernel-row",rowName:l=>l.name,sort:zn(),onSortChange:l=>P({ksort:l.key,kdir:l.direction})});return a("div",{class:"overview","data-testid":"kernels"},a("section",{class:"panel"},a("h2",{},"GPU utilization and est. SM efficiency"),Un(s.devices),...o.map(l=>a("p",{class:"muted"},l))),a("section",{class:"panel"},a("h2",{},"Kernels"),a("div",{class:"table-scroll"},i)))}};function ht(e){let t=new Set(e.map(s=>s.path)),n=[],r=new Map;for(let s of e){if(s.parent===null||!t.has(s.parent)){n.push(s);continue}let o=r.get(s.parent);o?o.push(s):r.set(s.parent,[s])}return{roots:n,children:r}}function pt(e,t){let n=new Set;return e.filter(r=>r.parent!==null&&(t.has(r.parent)||n.has(r.parent))?(n.add(r.path),!1):!0)}function ft(e,t,n,r=.5){let s=[],o=new Map,i=c=>{let u=o.get(c.path);return u===void 0&&(u=Math.max(0,t(c)),u===0&&(u=l(e.children.get(c.path)??[])),o.set(c.path,u)),u},l=c=>c.reduce((u,d)=>u+i(d),0),m=(c,u,d,h,p)=>{let f=u;for(let v of c){let T=h>0?d*i(v)/h:0;if(T>=r){s.push({row:v,x:f,width:T,level:p});let w=e.children.get(v.path)??[];m(w,f,T,Math.max(i(v),l(w)),p+1)}f+=T}};return m(e.roots,0,n,l(e.roots),0),s}var De=20,Kn=6.5,Vn=24;function qn(e,t){let n=Math.floor((t-6)/Kn);return t<Vn||n<2?"":e.length<=n?e:`${e.slice(0,n-1)}…`}function Yn(e,t){let n=ft(e.tree,e.value,t),r=n.reduce((o,i)=>Math.max(o,i.level+1),0),s=M("svg",{width:t,height:r*De,class:"icicle-svg",role:"img","aria-label":"Module time as an icicle chart"});for(let{row:o,x:i,width:l,level:m}of n){let c=m*De,u=M("g",{class:o.path===e.selected?"icicle-cell selected":"icicle-cell","data-testid":"icicle-cell","data-path":o.path},M("title",{},e.tooltip(o)),M("rect",{x:i.toFixed(2),y:c,width:Math.max(l-1,.5).toFixed(2),height:De-1,fill:e.color(o)})),d=qn(e.label(o),l);d&&u.append(M("text",{class:"icicle-label",x:(i+3).toFixed(2),y:c+14},d)),u.addEventListener("click",()=>e.onSelect(o)),s.append(u)}return s}function bt(e){let t=a("div",{class:"icicle","data-testid":"module-icicle"}),n=0;return new ResizeObserver(()=>{let r=t.clientWidth;r===0||r===n||(n=r,t.replaceChildren(Yn(e,r)))}).observe(t),t}var jn=200,Jn=2,Zn=16,yt={forward:"forward",backward:"backward",total:"forward + backward"};function Ne(e){return e.path===""?`(model) ${e.type}`:e.name}function Qn(e){return e instanceof DOMException&&e.name==="AbortError"}function xe(e,t){return e[t.phase]}function gt(e,t){let n=xe(e,t);return n?(t.time==="device"?n.gpu_total_ns:n.total_ns)??0:0}function K(e,t,n,r,s=g){let o=i=>xe(i,r)?.[e]??null;return{key:e,label:t,title:n,numeric:!0,value:o,format:i=>s(o(i))}}function er(e,t,n,r){let s={key:"name",label:"module",numeric:!1,value:c=>c.path,render:c=>{let u=!t.has(c.path),d=n(c)?a("button",{type:"button",class:"tree-toggle","data-testid":"module-toggle","aria-expanded":String(u),"aria-label":`${u?"Collapse":"Expand"} ${Ne(c)}`},u?"▾":"▸"):a("span",{class:"tree-toggle-space"});return d.addEventListener("click",h=>{h.stopPropagation(),r(c)}),a("span",{class:"tree-cell",style:`padding-left:${c.depth*Zn}px`,title:c.path},d,Ne(c))}},o={key:"type",label:"type",numeric:!1,value:c=>c.type},i=K("calls","calls","Calls in this phase",e,y),l={key:"params",label:"params",title:"Parameters in its subtree (shared ones once)",numeric:!0,value:c=>c.params,format:c=>y(c.params)},m=K("pct_of_step","% of step","Its time per covered step over the mean step time (docs/ANALYSIS.md)",e,J);return e.time==="device"?[s,o,i,K("gpu_total_ns","device total","CUDA-event time of its calls",e),K("gpu_mean_ns","device mean","Per call, in steps with device times",e),K("total_ns","host total","Host time of its calls",e),l]:[s,o,i,K("self_ns","self","Total minus the profiled modules called inside it",e),K("total_ns","total","Time of its calls, nested modules included",e),K("mean_ns","mean","Per call",e),K("p95_ns","p95","Per call (from the recorded samples)",e),m,l]}function tr(e){let t=e.steps.map(s=>{let o=s.step_time_ns===null?"":`, mean step ${g(s.step_time_ns)}`;return`rank ${s.rank}: ${y(s.steps)} steps${o}`}).join("; "),r=[(e.source==="collector"?"ModuleProfiler records: attribute paths, forward and backward calls.":"From torch.profiler traces: forward calls only (backward runs outside module calls).")+(t?` Covered steps — ${t}.`:"")];if(e.class_names&&r.push(a("strong",{"data-testid":"module-class-names"}," Names are class names with a per-class counter (Linear_3), not attribute paths; the tree comes from how calls nest. Record with collectors.ModuleProfiler for paths.")),e.total_rows>e.rows.length){let s=`${y(e.rows.length)} of ${y(e.total_rows)}`;r.push(` Showing the first ${s} modules.`)}return a("p",{class:"muted","data-testid":"module-note"},...r)}function nr(e){let t=[];return e.backward||t.push("backward not profiled"),e.every_n_steps>1&&t.push(`profiled one step in ${e.every_n_steps}`),e.aggregate_steps>1&&t.push(`records aggregate ${e.aggregate_steps} steps`),e.gpu?.startsWith("off")&&t.push(`no device times: GPU timing ${e.gpu}`),e.max_depth!==null&&t.push(`modules to depth ${e.max_depth}`),e.include.length>0&&t.push(`only ${e.include.join(", ")}`),e.exclude.length>0&&t.push(`excluding ${e.exclude.join(", ")}`),t}function rr(e){return e.charAt(0).toUpperCase()+e.slice(1)+(e.endsWith(".")?"":".")}function sr(e){let t=[];for(let n of e){let r=nr(n);if(r.length===0&&n.compiled===null)continue;let s=n.ranks.length===1?"rank":"ranks",o=e.length>1?` (${s} ${n.ranks.join(", ")})`:"",i=r.length>0?`: ${r.join(" · ")}`:"";t.push(`${t.length>0?" ":""}ModuleProfiler${o}${i}.`),n.compiled!==null&&t.push(a("strong",{"data-testid":"module-compiled"},` ${rr(n.compiled)}`))}return t.length===0?null:a("p",{class:"muted","data-testid":"module-settings"},...t)}function or(e){return e.length===0?null:a("div",{class:"warnings",role:"status","data-testid":"module-warnings"},a("strong",{},"Some module records could not be read"),a("ul",{},...e.map(t=>a("li",{},t))))}function vt(e,t,n,r){let s=a("select",{"aria-label":e,"data-testid":t},...n.map(([o,i])=>a("option",{value:o},i)));return s.value=r,s}function ar(e){return e?`inputs ${JSON.stringify(e.inputs)} → output ${JSON.stringify(e.output)}`:null}function ir(e,t,n){let r=[];for(let l of e.series){let m=C(n.indexOf(l.rank)),c=t==="device"&&l.device_ns?l.device_ns:l.host_ns,u=l.steps.flatMap((d,h)=>{let p=c[h];return p==null?[]:[[d,p]]});u.length!==0&&r.push({label:`rank ${l.rank}${t==="device"&&l.device_ns?" (device)":""}`,color:m,x:u.map(([d])=>d),y:u.map(([,d])=>d)})}if(r.length===0)return a("p",{class:"muted","data-testid":"module-step-chart-empty"},"No per-step times: no step covers this module's calls.");let s=Math.max(...e.series.map(l=>l.bucket)),o=B({series:r,height:220,xLabel:"step",formatX:l=>String(l),formatY:g,yTickFormat:ve,testId:"module-step-chart"});if(s===1)return o;let i=`Each point is the mean of ${s} consecutive steps.`;return a("div",{},o,a("p",{class:"muted"},i))}function wt(e,t){let n=xe(e,t);if(!n)return`Not called in ${yt[t.phase]}.`;let r=[`${y(n.calls)} calls`,`total ${g(n.total_ns)}`,`self ${g(n.self_ns)}`,`mean ${g(n.mean_ns)}`];return n.median_ns!==null&&r.push(`median ${g(n.median_ns)}`),n.std_ns!==null&&r.push(`std ${g(n.std_ns)}`),n.p95_ns!==null&&r.push(`p95 ${g(n.p95_ns)}`),n.gpu_total_ns!==null&&r.push(`device ${g(n.gpu_total_ns)}`),e.params!==null&&r.push(`${y(e.params)} params`),r.join(" · ")}function lr(){return a("p",{class:"muted"},"No module calls in this run. Wrap the model in collectors.ModuleProfiler(model, timer) for forward and backward time per attribute path; or record traces with Lightning's PyTorchProfiler, or with profile_steps(..., with_stack=True) (torch.profiler's with_stack=True) in eager mode.")}var xt={id:"modules",label:"Modules",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let s=await lt(e,t,n,r),o=a("section",{class:"panel"},a("h2",{},"Modules")),i=sr(s.settings);i&&o.append(i);let l=a("div",{class:"overview","data-testid":"modules"},o),m=or(s.warnings);if(s.rows.length===0)return o.append(lr()),m&&o.append(m),l;if(!s.rows.some(b=>b.forward||b.backward)){let b=t===null?"Modules are declared, but no calls are recorded yet.":`No module calls recorded on rank ${t}; select another rank.`;return o.append(a("p",{class:"muted","data-testid":"module-note"},b)),l}let c=H(),u=s.phases,d=c.get("modphase"),h={phase:d&&u.includes(d)?d:u.includes("total")?"total":"forward",time:s.device&&c.get("modtime")==="device"?"device":"host"},p=ht(s.rows),f=b=>(p.children.get(b.path)?.length??0)>0,v=new Set(s.rows.length<=jn?[]:s.rows.filter(b=>b.depth>=Jn-1&&f(b)).map(b=>b.path)),T=s.steps.map(b=>b.rank),w=[...new Set(s.rows.map(b=>b.type))],k=s.rows.find(b=>b.path===c.get("modpath"))??null,G=vt("Phase","module-phase",u.map(b=>[b,yt[b]]),h.phase),j=vt("Time","module-time",[["host","host time"],["device","device time"]],h.time);G.hidden=u.length<2,j.hidden=!s.device;let S=a("div"),N=a("div",{class:"table-scroll"}),W=a("div",{class:"module-detail","data-testid":"module-detail"}),L=new AbortController;n.addEventListener("abort",()=>L.abort());let fe=()=>{let b=k?.path??null,_="[data-testid=icicle-cell], [data-testid=module-row]";for(let $ of l.querySelectorAll(_)){let X=$.getAttribute("data-path")??$.getAttribute("data-name");$.classList.toggle("selected",X===b)}},ne=async()=>{if(L.abort(),L=new AbortController,k===null){W.replaceChildren(a("p",{class:"muted"},"Click a module (a row or a cell) to see its time per step."));return}let b=k,_=a("h3",{},`${b.path===""?"(model)":b.path} · ${b.type}`);W.replaceChildren(_,a("p",{},wt(b,h)),a("p",{class:"muted"},"Loading steps…"));try{let $=await dt(e,t,b.path,h.phase,L.signal),X=ar($.shapes);W.replaceChildren(_,a("p",{},wt(b,h)),...X?[a("p",{class:"muted"},X)]:[],ir($,h.time,T))}catch($){if(!Qn($)){let X=`Could not load its steps: ${String($)}`;W.replaceChildren(_,a("p",{role:"alert"},X))}}},be=b=>{k=b,P({modpath:b.path}),fe(),ne()},U=()=>{let b=F({columns:er(h,v,f,_=>{v.has(_.path)?v.delete(_.path):v.add(_.path),U()}).filter(_=>!_.numeric||s.rows.some($=>_.value($)!==null)),rows:pt(s.rows,v),testId:"module-table",rowTestId:"module-row",rowName:_=>_.path,rowClass:_=>_.path===k?.path?"selected":void 0});b.addEventListener("click",_=>{let $=_.target instanceof Element?_.target.closest("tr[data-name]"):null,X=$&&s.rows.find(_n=>_n.path===$.getAttribute("data-name"));X&&be(X)}),N.replaceChildren(b)},re=()=>{S.replaceChildren(bt({tree:p,value:b=>gt(b,h),label:Ne,tooltip:b=>{let _=xe(b,h),$=_?.pct_of_step==null?"":` · ${J(_.pct_of_step)} of step`;return`${b.path===""?"(model)":b.path} (${b.type}): ${g(gt(b,h))}${$}`},color:b=>C(w.indexOf(b.type)),selected:k?.path??null,onSelect:be})),U(),ne()};return G.addEventListener("change",()=>{h.phase=G.value,P({modphase:h.phase}),re()}),j.addEventListener("change",()=>{h.time=j.value==="device"?"device":"host",P({modtime:h.time==="device"?"device":null}),re()}),re(),o.append(tr(s),...m?[m]:[],a("div",{class:"controls"},G,j),S,W,N),l}};var dr=1e3,cr=10;function ke(e,t,n){return{key:e,label:t,title:n,numeric:!0,value:r=>r[e],format:r=>g(r[e])}}var ur=[{key:"name",label:"operator",numeric:!1,value:e=>e.name},{key:"input_dims",label:"input shapes",numeric:!1,value:e=>e.input_dims},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>y(e.calls)},ke("device_self_ns","device self","Kernels, copies and fills it launched itself"),ke("device_total_ns","device total","Device self of the op and everything nested in it"),ke("host_self_ns","host self","Host time minus its direct children (as key_averages)"),ke("host_total_ns","host total","Host time of its calls")];function mr(e,t){let n=H(),r=n.get("opsort"),s=n.get("opdir");return e.some(o=>o.key===r)&&(s==="asc"||s==="desc")?{key:r,direction:s}:{key:t?"device_self_ns":"host_self_ns",direction:"desc"}}function hr(e,t){let n=e.some(r=>r.device_total_ns>0);return ur.filter(r=>(t||r.key!=="input_dims")&&(n||!r.key.startsWith("device_")))}function pr(e){let t=e.some(o=>o.device_self_ns>0),n=o=>t?o.device_self_ns:o.host_self_ns,r=[...e].sort((o,i)=>n(i)-n(o)).slice(0,cr),s=Math.max(1,...r.map(n));return a("div",{class:"top-bars","data-testid":"operator-bars"},a("p",{class:"muted"},`Top ${r.length} by ${t?"device":"host"} self time`),...r.map(o=>a("div",{class:"top-bar-row"},a("span",{class:"top-bar-label",title:o.name},o.name),a("span",{class:"top-bar-track"},a("span",{class:"top-bar",style:`width: ${(n(o)/s*100).toFixed(2)}%`})),a("span",{class:"top-bar-value"},g(n(o))))))}var kt={id:"operators",label:"Operators",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,params:s}){let o=a("input",{type:"search",class:"search-input",placeholder:"Filter operators","aria-label":"Filter operators","data-testid":"operator-filter",value:String(s.q??H().get("opq")??"")}),i=a("select",{"aria-label":"Group by","data-testid":"operator-group"},a("option",{value:"name"},"by name"),a("option",{value:"input_dims"},"by name and input shapes"));i.value=H().get("opgroup")==="input_dims"?"input_dims":"name";let l=a("p",{class:"muted","data-testid":"operator-caption"}),m=a("div"),c=a("div",{class:"table-scroll"}),u=[],d=()=>{let f=o.value.trim().toLowerCase(),v=u.filter(k=>f===""||k.name.toLowerCase().includes(f)),T=hr(u,i.value==="input_dims"),w=T.some(k=>k.key==="device_self_ns");m.replaceChildren(pr(v)),c.replaceChildren(F({columns:T,rows:v,testId:"operator-table",rowTestId:"operator-row",rowName:k=>k.name,sort:mr(T,w),onSortChange:k=>P({opsort:k.key,opdir:k.direction})})),P({opq:f===""?null:o.value})},h=new AbortController,p=async f=>{h.abort(),h=new AbortController;let v=i.value==="input_dims"?"input_dims":"name",T=f?n:h.signal,w=await we(e,t,v,dr,T,r);u=w.rows,l.textContent=w.total_rows>w.rows.length?`Showing ${w.rows.length} of ${y(w.total_rows)} operators.`:`${y(w.total_rows)} operators.`,d()};return o.addEventListener("input",d),i.addEventListener("change",()=>{P({opgroup:i.value==="input_dims"?"input_dims":null}),p(!1).catch(f=>{f instanceof DOMException&&f.name==="AbortError"||(l.textContent=`Could not load operators: ${String(f)}`)})}),await p(!0),a("div",{class:"overview","data-testid":"operators"},a("section",{class:"panel"},a("h2",{},"Operators"),a("div",{class:"controls"},o,i),l,m,c))}};function St(e,t,n,r){return E(`./memory?${O(e,{rank:t})}`,n,r)}function Tt(e,t,n,r){return E(`./gpu?${O(e,{rank:t})}`,n,r)}function _t(e,t,n,r){return E(`./snapshot?${O(e,{file:t})}`,n,r)}function Mt(e,t,n,r,s,o,i){let l=O(e,{file:t,device:n,t0:r,t1:s,width:o});return E(`./snapshot/tile?${l}`,i)}function Rt(e,t,n,r,s){return E(`./snapshot/allocation?${O(e,{file:t,device:n,index:r})}`,s)}var fr=[{value:"util",title:"GPU utilization (share of time a kernel ran, NVML)",testId:"gpu-util-chart",format:e=>`${e.toFixed(1)} %`,ticks:oe(" %")},{value:"mem_used",title:"GPU memory used (dashed: the device's total)",testId:"gpu-memory-chart",format:x,ticks:se},{value:"power_w",title:"Power",testId:"gpu-power-chart",format:e=>`${e.toFixed(1)} W`,ticks:oe(" W")},{value:"sm_clock_mhz",title:"SM clock",testId:"gpu-clock-chart",format:e=>`${e.toFixed(0)} MHz`,ticks:oe(" MHz")},{value:"temp_c",title:"Temperature",testId:"gpu-temp-chart",format:e=>`${e.toFixed(0)} °C`,ticks:oe(" °C")}];function He(e,t){let n={x:[],y:[]};return t?.forEach((r,s)=>{let o=e[s];r!==null&&o!==void 0&&(n.x.push(o),n.y.push(r))}),n}function Et(e,t,...n){return a("section",{class:"panel","data-testid":t},a("h2",{},e),...n)}function At(e){let t=e.find(r=>r.steps.start_ns.length>0);if(!t)return{marks:[],label:""};let n=t.steps.every>1?`every ${t.steps.every}th `:"";return{marks:t.steps.start_ns,label:`${n}step start (rank ${t.rank})`}}function br(e,t,n){let r=`GPU ${t.index}${t.name?` ${t.name}`:""}`;return n?`rank ${e.rank} ${r}`:r}function gr(e,t){let n=t.length>1,r=[],s=0;for(let l of t)for(let m of l.devices){let{x:c,y:u}=He(m.t_ns,m[e.value]);if(c.length===0)continue;let d=br(l,m,n),h=C(s);if(s+=1,r.push({label:d,color:h,x:c,y:u}),e.value==="mem_used"){let p=He(m.t_ns,m.mem_total);p.x.length&&r.push({...p,label:`${d} total`,color:h,dashed:!0})}}if(r.length===0)return null;let{marks:o,label:i}=At(t);return Et(e.title,e.testId,B({series:r,height:200,xLabel:"time since the first sample",formatX:g,formatY:e.format,yTickFormat:e.ticks,testId:`${e.testId}-plot`,markers:o,markerLabel:i}))}function vr(e){let t=e.length>1,{marks:n,label:r}=At(e),s=(o,i,l,m,c)=>{let u=e.map((d,h)=>({rank:d,i:h,...He(d.t_ns,d[o])})).filter(d=>d.x.length>0).map(d=>({label:t?`rank ${d.rank.rank}`:"this process",color:C(d.i),x:d.x,y:d.y}));return u.length===0?null:Et(i,l,B({series:u,height:180,xLabel:"time since the first sample",formatX:g,formatY:m,yTickFormat:c,testId:`${l}-plot`,markers:n,markerLabel:r}))};return[s("cpu_pct","Process CPU use (% of one core; DataLoader workers not included)","cpu-chart",o=>`${o.toFixed(1)} %`,oe(" %")),s("rss","Process resident memory (RSS)","cpu-rss-chart",x,se)].filter(o=>o!==null)}function wr(e){if(e.gpu_reason!==null)return a("section",{class:"notice","data-testid":"gpu-reason",role:"status"},a("strong",{},"No GPU data: "),`${e.gpu_reason}.`,e.ranks.length?" The process side is shown below.":"");let t=e.ranks.filter(n=>n.gpu_reason!==null);return t.length===0?null:a("section",{class:"notice","data-testid":"gpu-rank-reasons",role:"status"},a("strong",{},"Some ranks have no GPU samples: "),t.map(n=>`rank ${n.rank}: ${n.gpu_reason}`).join("; "))}function yr(e){let t=e.ranks,n=fr.map(s=>gr(s,t)).filter(s=>s!==null),r=t.length===0?a("p",{class:"muted","data-testid":"no-system"},"Start collectors.GpuTracker(timer.writer) in the training processes to sample the GPUs and the process about once a second."):null;return a("div",{class:"gpu","data-testid":"gpu"},wr(e),...n,...vr(t),r)}var Lt={id:"gpu",label:"GPU",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){return yr(await Tt(e,t,n,r))}};var xr={overview:"Overview",timeline:"Timeline",operators:"Operators",kernels:"Kernels",memory:"Memory",gpu:"GPU"};function kr(e,t){return typeof e!="number"?String(e):t==="ns"?g(e):t==="fraction"?`${(e*100).toFixed(1)} %`:t==="x"?`${e.toFixed(2)}×`:t==="%"?`${e.toFixed(1)} %`:t==="bytes"?x(e):t==="bytes/step"?`${x(e)} per step`:String(e)}function Sr(e,t){let n=e.view.tab,r=a("button",{type:"button",class:"link-button","data-testid":"finding-link","data-tab":n},`Open in ${xr[n]??n}`);r.addEventListener("click",()=>t(n,e.view.params));let s=Object.entries(e.evidence).map(([o,i])=>a("li",{},`${o.replaceAll("_"," ")}: ${kr(i.value,i.unit)}`));return a("li",{class:`finding severity-${e.severity}`,"data-testid":"finding","data-kind":e.kind,"data-severity":e.severity},a("div",{class:"finding-head"},a("span",{class:`severity-badge severity-${e.severity}`},e.severity),a("strong",{class:"finding-title"},e.title)),a("ul",{class:"finding-evidence"},...s),a("p",{class:"finding-fix"},e.recommendation),r)}function Se(e,t){let n=e.length===0?a("p",{class:"muted","data-testid":"no-findings"},"No findings: nothing in this run crossed a threshold."):a("ol",{class:"findings","data-testid":"findings"},...e.map(r=>Sr(r,t)));return a("section",{class:"panel"},a("h2",{},"Findings"),n)}function Te(e){let t=2166136261;for(let n=0;n<e.length;n+=1)t^=e.charCodeAt(n),t=Math.imul(t,16777619);return(t>>>0)%40}function _e(e){return Array.from({length:40},(t,n)=>{let r=Math.round(n*137.508%360),s=(e?36:72)+n%3*4;return`hsl(${r} ${e?40:55}% ${s}%)`})}function de(){let e=getComputedStyle(document.documentElement),t=r=>e.getPropertyValue(r).trim(),n=document.documentElement.dataset.theme==="dark";return{dark:n,background:t("--bg"),surface:t("--surface"),text:t("--fg"),mutedText:t("--fg-muted"),border:t("--border"),grid:t("--grid"),accent:t("--accent"),boxText:n?"#f5f5f5":"#212121",boxes:_e(n)}}function Ie(e){return e.end-e.start}function Y(e,t){let n=Ie(t),r=Math.min(n,Math.max(200,Ie(e))),s=Math.min(Math.max(e.start,t.start),t.end-r);return{start:s,end:s+r}}function Me(e,t,n,r){let s=t-(t-e.start)*n,o=t+(e.end-t)*n;return Y({start:s,end:o},r)}function ce(e,t,n){return Y({start:e.start+t,end:e.end+t},n)}function Q(e,t,n,r){let s=Math.max(t-e,200)*n;return Y({start:e-s,end:t+s},r)}function $t(e,t,n,r){if(t>=e.start&&n<=e.end)return e;let s=Ie(e);if(n-t>s*.8)return Q(t,n,.1,r);let o=(t+n)/2;return Y({start:o-s/2,end:o+s/2},r)}function Pt(e,t){let n=Math.max(t-e,200)*.02;return{start:e-n,end:t+n}}var ue=280,Ct=18,Tr=3,_r=.0015,Mr=60;function Rr(e){let{bands:t,steps:n}=e,r=[],s=0;return t.id.forEach((o,i)=>{let l=t.start[i]??0,m=t.y0[i]??0,c=t.steps[i]??0;for(let u=0;u<c;u+=1,s+=1){let d=e.t0+((n.px[s]??0)+1)*e.ns_per_px;r.push({band:i,t0:l,t1:d,y:m}),l=d,m=n.y[s]??m}r.push({band:i,t0:l,t1:t.end[i]??l,y:m})}),r}function Nt(e){return`${e.filename}:${e.line} (${e.name})`}function Dt(e,t){return e.length===0?a("p",{class:"muted"},"No stack recorded."):a("ol",{class:"stack-frames","data-testid":t},...e.map(n=>a("li",{},Nt(n))))}var Re=class{constructor(t,n,r,s,o){this.run=t;this.file=n;this.device=r;this.timeUnit=s;this.signal=o;let i=r.time?Math.max(r.time.end,r.time.start+1):1;this.bounds={start:r.time?.start??0,end:i},this.window=this.bounds;let l=a("button",{type:"button","data-testid":"snapshot-reset"},"Reset zoom");l.addEventListener("click",()=>this.show(this.bounds)),this.element=a("div",{class:"snapshot-viewer","data-testid":"snapshot-viewer"},a("div",{class:"snapshot-toolbar"},l,this.status,a("span",{class:"muted hint"},"Wheel: zoom · drag: pan · click a block: details")),this.stage,this.hover,this.details),this.attachInput(),new ResizeObserver(()=>{let m=Math.floor(this.stage.clientWidth);m===0||m===this.width||(this.width=m,this.draw(),this.schedule())}).observe(this.stage),o.addEventListener("abort",()=>this.fetching.abort(),{once:!0})}run;file;device;timeUnit;signal;element;canvas=a("canvas",{class:"snapshot-canvas","data-testid":"snapshot-canvas",tabindex:0,"aria-label":"Live allocations over time; wheel to zoom, drag to pan, click for details"});stage=a("div",{class:"snapshot-stage"},this.canvas);status=a("span",{class:"muted","data-testid":"snapshot-status"});hover=a("span",{class:"snapshot-hover","data-testid":"snapshot-hover"});details=a("div",{class:"snapshot-details","data-testid":"snapshot-allocation"},a("p",{class:"muted"},"Click a block for its size, lifetime and stack."));bounds;window;drawn=null;width=0;fetching=new AbortController;detailsFetch=new AbortController;timer;formatTime(t){return this.timeUnit==="ns"?Z(t):`entry ${Math.round(t)}`}formatSpan(t){return this.timeUnit==="ns"?g(t):`${Math.round(t)} entries`}show(t){this.window=Y(t,this.bounds),this.draw(),this.schedule()}schedule(){clearTimeout(this.timer),this.timer=setTimeout(()=>{this.load()},Mr)}async load(){if(this.width===0||this.signal.aborted)return;this.fetching.abort(),this.fetching=new AbortController;let{start:t,end:n}=this.window,r=Math.floor(t),s=Math.max(Math.ceil(n),r+1);try{let o=await Mt(this.run,this.file,this.device.device,r,s,this.width,this.fetching.signal),i=Math.max(1,...o.pixels.total_max);this.drawn={tile:o,pieces:Rr(o),yMax:i},this.status.textContent=`${o.drawn} of ${o.visible} allocations drawn`+(o.merged?` (${o.merged} too small or too short: grey)`:"")+` · ${this.formatTime(r)} – ${this.formatTime(s)}`,this.draw()}catch(o){if(o instanceof DOMException&&o.name==="AbortError")return;this.status.textContent=`Could not load this window: ${String(o)}`}}x(t){return(t-this.window.start)/(this.window.end-this.window.start)*this.width}draw(){let t=window.devicePixelRatio||1,n=this.width;this.canvas.width=Math.round(n*t),this.canvas.height=Math.round(ue*t),this.canvas.style.width=`${n}px`,this.canvas.style.height=`${ue}px`;let r=this.canvas.getContext("2d");if(!r||n===0)return;let s=de(),o=_e(s.dark);r.setTransform(t,0,0,t,0,0),r.fillStyle=s.background,r.fillRect(0,0,n,ue);let i=ue-Ct,l=this.drawn;if(l){let{tile:u,pieces:d,yMax:h}=l,p=(i-12)/h;r.fillStyle=s.grid,u.pixels.total_max.forEach((f,v)=>{let T=u.pixels.drawn_max[v]??0;if(f<=T)return;let w=this.x(u.t0+v*u.ns_per_px),k=this.x(u.t0+(v+1)*u.ns_per_px);r.fillRect(w,i-f*p,Math.max(1,k-w),(f-T)*p)});for(let f of d){let v=u.bands.size[f.band]??0,T=u.labels[u.bands.label[f.band]??0]??"",w=Math.max(-1,this.x(f.t0)),k=Math.min(n+1,this.x(f.t1));if(k<=w)continue;r.fillStyle=o[Te(T)]??s.accent;let G=i-(f.y+v)*p;r.fillRect(w,G,Math.max(k-w,.5),Math.max(v*p,.5))}r.fillStyle=s.mutedText,r.font="11px sans-serif",r.textBaseline="top",r.fillText(x(h),4,2)}r.strokeStyle=s.border,r.beginPath(),r.moveTo(0,i+.5),r.lineTo(n,i+.5),r.stroke(),r.fillStyle=s.mutedText,r.font="11px sans-serif",r.textBaseline="top",r.fillText(this.formatTime(this.window.start),4,i+4);let m=this.formatTime(this.window.end);r.fillText(m,n-r.measureText(m).width-4,i+4);let c=`${this.formatSpan(this.window.end-this.window.start)} shown`;r.fillText(c,(n-r.measureText(c).width)/2,i+4)}bandAt(t,n){let r=this.drawn;if(!r)return null;let s=ue-Ct,o=(s-12)/r.yMax,i=this.window.start+t/this.width*(this.window.end-this.window.start),l=(s-n)/o,m=(this.window.end-this.window.start)/this.width;for(let c of r.pieces){let u=r.tile.bands.size[c.band]??0;if(!(i<c.t0-m||i>=c.t1+m)&&l>=c.y&&l<c.y+Math.max(u,2/o))return c.band}return null}describe(t){let n=this.drawn?.tile;if(!n)return"";let r=n.labels[n.bands.label[t]??0]??"";return`${x(n.bands.size[t]??0)} · ${r}`}async select(t){let r=this.drawn?.tile?.bands.id[t];if(r!==void 0){this.detailsFetch.abort(),this.detailsFetch=new AbortController,this.details.replaceChildren(a("p",{class:"muted"},`Loading allocation ${r}…`));try{let s=await Rt(this.run,this.file,this.device.device,r,this.detailsFetch.signal);this.details.replaceChildren(this.allocationView(s))}catch(s){if(s instanceof DOMException&&s.name==="AbortError")return;this.details.replaceChildren(a("p",{role:"alert"},String(s)))}}}allocationView(t){let n=(r,s)=>a("tr",{},a("th",{},r),a("td",{"data-field":r},s));return a("div",{},a("h3",{},`Allocation ${t.index}: ${x(t.size)}`),a("table",{class:"details-table"},a("tbody",{},n("size",`${x(t.size)} (${t.size.toLocaleString("en-US")} B)`),n("address",`0x${t.addr.toString(16)}`),n("allocated",t.allocated_before_trace?"before the trace began":this.formatTime(t.t_alloc)),n("freed",t.live_at_snapshot?"still live at the snapshot":this.formatTime(t.t_free)),n("lifetime",`${this.formatSpan(t.lifetime)}${t.allocated_before_trace||t.live_at_snapshot?" or more":""}`),n("stream",String(t.stream)),n("first user frame",t.first_user_frame?Nt(t.first_user_frame):"—"))),a("h4",{},"Allocated at"),Dt(t.frames,"allocation-frames"),t.free_frames.length?a("h4",{},"Freed at"):null,t.free_frames.length?Dt(t.free_frames,"free-frames"):null)}attachInput(){let t=this.canvas;t.addEventListener("wheel",r=>{r.preventDefault();let s=this.window.end-this.window.start;if(Math.abs(r.deltaX)>Math.abs(r.deltaY)){this.show(ce(this.window,r.deltaX/this.width*s,this.bounds));return}let o=this.window.start+r.offsetX/this.width*s,i=Math.exp(r.deltaY*_r);this.show(Me(this.window,o,i,this.bounds))},{passive:!1});let n=null;t.addEventListener("pointerdown",r=>{r.button===0&&(t.setPointerCapture(r.pointerId),n={startX:r.offsetX,lastX:r.offsetX,moved:!1})}),t.addEventListener("pointermove",r=>{if(n===null){let s=this.bandAt(r.offsetX,r.offsetY);this.hover.textContent=s===null?"":this.describe(s);return}if(Math.abs(r.offsetX-n.startX)>Tr&&(n.moved=!0),n.moved){let s=this.window.end-this.window.start,o=(n.lastX-r.offsetX)/this.width*s;n.lastX=r.offsetX,this.show(ce(this.window,o,this.bounds))}}),t.addEventListener("pointerup",r=>{if(n!==null&&!n.moved){let s=this.bandAt(r.offsetX,r.offsetY);s!==null&&this.select(s)}n=null}),t.addEventListener("pointercancel",()=>{n=null}),t.addEventListener("pointerleave",()=>{this.hover.textContent=""})}};var Er=["allocated","reserved","peak","rss"],Ar={allocated:"allocated",reserved:"reserved",peak:"peak allocated",rss:"RSS"},Lr="#d62728";function me(e,t,...n){return a("section",{class:"panel","data-testid":t},a("h2",{},e),...n)}function $r(e){return e instanceof DOMException&&e.name==="AbortError"}function Pr(e,t){let n={x:[],y:[]};return t.forEach((r,s)=>{let o=e[s];r!==null&&o!==void 0&&(n.x.push(o),n.y.push(r))}),n}function Ht(e,t){let n=e.length>1,r=[],s=0;for(let o of e){for(let l of Er){let m=o[l];if(!m)continue;let{x:c,y:u}=Pr(o[t],m);if(c.length===0)continue;let d=`${n?`rank ${o.rank} `:""}${Ar[l]}`;r.push({label:d,color:C(s),x:c,y:u}),s+=1}let i=o.trend;t==="steps"&&i?.leak&&r.push({label:`${n?`rank ${o.rank} `:""}leak trend (${x(i.slope)}/step)`,color:Lr,x:[i.first_step,i.last_step],y:[i.start_level,i.end_level],dashed:!0})}return r}function Cr(e){let t=e.ranks;if(t.length===0)return[a("p",{class:"muted","data-testid":"no-memory"},"No MemorySampler records in this run. Wrap the training loop in “with MemorySampler(timer):” (from collectors) to record memory every step.")];let n=Math.max(...t.map(i=>i.bucket)),r=n>1?a("p",{class:"muted"},`Each point is the mean of ${n} consecutive steps (peak: their maximum).`):null,s=B({series:Ht(t,"steps"),height:280,xLabel:"step",formatX:i=>String(i),formatY:x,yTickFormat:se,testId:"memory-step-chart"}),o=B({series:Ht(t,"t_ns"),height:220,xLabel:"time since the first sample",formatX:g,formatY:x,yTickFormat:se,testId:"memory-time-chart"});return[me("Memory per step","memory-steps",s,r),me("Memory over time","memory-time",o)]}var Dr=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"device",label:"device",numeric:!1,value:e=>e.device},{key:"device_total",label:"device memory",numeric:!0,value:e=>e.device_total,format:e=>x(e.device_total)},{key:"peak",label:"peak allocated",title:"The highest peak (else allocated) any step recorded",numeric:!0,value:e=>e.max_peak?.bytes??null,format:e=>x(e.max_peak?.bytes)},{key:"peak_share",label:"% of device",numeric:!0,value:e=>(e.max_peak?.share??null)===null?null:(e.max_peak?.share??0)*100,format:e=>J(e.max_peak?.share===null||!e.max_peak?null:e.max_peak.share*100)},{key:"unused",label:"reserved above peak",title:"Median over steps after warm-up of reserved memory the peak never used (fragmentation)",numeric:!0,value:e=>e.fragmentation?.unused??null,format:e=>e.fragmentation?`${x(e.fragmentation.unused)} (${(e.fragmentation.unused_fraction*100).toFixed(0)} %)`:"—"},{key:"retries",label:"alloc retries",numeric:!0,value:e=>e.fragmentation?.retries??null,format:e=>y(e.fragmentation?.retries)},{key:"slope",label:"trend per step",title:"Theil-Sen slope after warm-up (allocated on CUDA, else RSS), with its 95 % interval",numeric:!0,value:e=>e.trend?.slope??null,format:e=>e.trend?`${x(e.trend.slope)} [${x(e.trend.low)}, ${x(e.trend.high)}]`:"—"}],Nr=[{key:"label",label:"first user frame",numeric:!1,value:e=>e.label},{key:"peak_bytes",label:"live at peak",numeric:!0,value:e=>e.peak_bytes,format:e=>`${x(e.peak_bytes)} (${y(e.peak_count)})`},{key:"snapshot_bytes",label:"live at snapshot",numeric:!0,value:e=>e.snapshot_bytes,format:e=>`${x(e.snapshot_bytes)} (${y(e.snapshot_count)})`},{key:"trace_bytes",label:"allocated in trace",numeric:!0,value:e=>e.trace_bytes,format:e=>`${x(e.trace_bytes)} (${y(e.trace_count)})`}],Hr=[{key:"index",label:"allocation",numeric:!0,value:e=>e.index},{key:"size",label:"size",numeric:!0,value:e=>e.size,format:e=>x(e.size)},{key:"frame",label:"first user frame",numeric:!1,value:e=>e.first_user_frame?`${e.first_user_frame.filename}:${e.first_user_frame.line} (${e.first_user_frame.name})`:"—"}];function Ir(e,t,n,r){let s=new Re(e,t.file,n,t.time_unit,r),o=n.by_first_user_frame.length;return a("div",{class:"snapshot-device","data-testid":"snapshot-device"},a("p",{class:"muted"},`Device ${n.device}: ${x(n.reserved_bytes)} reserved, ${x(n.allocated_bytes)} allocated at the snapshot; at most ${x(n.peak.live_bytes)} live at once (with ${x(n.peak.reserved_bytes)} reserved); ${y(n.allocations)} allocations.`),a("h3",{},"What holds the peak, by first user frame"),a("div",{class:"table-scroll"},F({columns:Nr,rows:n.by_first_user_frame,testId:"peak-frames",rowTestId:"peak-frame",rowName:i=>i.label})),o<n.frames_total?a("p",{class:"muted"},`The ${o} of ${n.frames_total} groups with the most memory at the peak.`):null,a("h3",{},"Largest allocations at the peak"),a("div",{class:"table-scroll"},F({columns:Hr,rows:n.largest_at_peak,testId:"peak-largest",rowTestId:"peak-allocation",rowName:i=>String(i.index)})),a("h3",{},"Allocations over time"),s.element)}function Or(e,t,n){let r=t.devices,s=a("div",{}),o=a("select",{"data-testid":"snapshot-device-select","aria-label":"Device"},...r.map(m=>a("option",{value:String(m.device)},`cuda:${m.device}`))),i=()=>{let m=r.find(c=>String(c.device)===o.value)??r[0];s.replaceChildren(m?Ir(e,t,m,n):a("p",{class:"muted"},"This snapshot holds no device."))};o.addEventListener("change",i),i();let l=t.trace_entries.oom??0;return a("div",{"data-testid":"snapshot-summary"},a("p",{},`${t.format} snapshot, ${x(t.reserved_bytes)} reserved, ${x(t.allocated_bytes)} allocated, free blocks ${(t.fragmentation.external*100).toFixed(0)} % fragmented`+(l?`; ${l} out-of-memory error(s) in its trace`:"")+(t.time_unit==="index"?"; no times recorded (entries in order)":"")),r.length>1?a("label",{},"Device ",o):null,s)}function Fr(e,t,n,r){if(t.length===0)return me("Memory snapshots","snapshots",a("p",{class:"muted","data-testid":"no-snapshots"},"No memory snapshots in this run. Record CUDA allocator history around a few steps with MemorySnapshotter (ENABLE_MEMORY_SNAPSHOT=1) to see what holds the peak, by line of code, and every allocation over time."));let s=a("select",{"data-testid":"snapshot-select","aria-label":"Snapshot"},...t.map(m=>a("option",{value:m.file},`${m.file} (${m.rank===null?"rank unknown":`rank ${m.rank}`}, ${x(m.bytes)})`)));s.value=t.some(m=>m.file===n)?n??"":t[0]?.file??"";let o=a("div",{class:"snapshot-body"}),i=new AbortController,l=async()=>{i.abort(),i=new AbortController;let m=AbortSignal.any([r,i.signal]),c=s.value;o.replaceChildren(a("p",{class:"muted"},`Loading ${c}…`));try{let u=await _t(e,c,m,d=>{o.replaceChildren(a("p",{class:"muted"},`Loading ${c}… ${Math.round(d.fraction*100)} %`))});o.replaceChildren(Or(e,u,m))}catch(u){if($r(u))return;o.replaceChildren(a("div",{class:"error",role:"alert","data-testid":"snapshot-error"},a("strong",{},`Could not read ${c}`),a("p",{},u instanceof Error?u.message:String(u))))}};return s.addEventListener("change",()=>{l()}),l(),me("Memory snapshots","snapshots",a("label",{},"Snapshot ",s),o)}function Wr(e){return e.length===0?null:a("section",{class:"warnings","data-testid":"warnings",role:"status"},a("h2",{},`${e.length} warning(s) while reading memory data`),a("ul",{},...e.map(t=>a("li",{},t))))}function Br(e,t,n,r){let s=e.ranks.length>0?me("Peak and fragmentation per rank","memory-ranks",a("div",{class:"table-scroll"},F({columns:Dr,rows:e.ranks,testId:"memory-rank-table",rowTestId:"memory-rank-row",rowName:o=>String(o.rank)}))):null;return a("div",{class:"memory","data-testid":"memory"},Wr(e.warnings),Se(e.findings,t),...Cr(e),s,Fr(e.run,e.snapshots,n,r))}var It={id:"memory",label:"Memory",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,navigate:s,params:o}){let i=await St(e,t,n,r),l=typeof o.snapshot=="string"?o.snapshot:null;return Br(i,s,l,n)}};var Oe=40;function Gr(e,t){let n=t.map((s,o)=>{let i=e.ns[s]??0,l=e.duration_ns>0?i/e.duration_ns:0;return a("span",{class:`breakdown-part category-${s}`,style:`width: ${(l*100).toFixed(3)}%; background: ${s==="idle"?"var(--grid)":C(o)}`,title:`${s}: ${g(i)} (${(l*100).toFixed(1)} %)`})}),r=e.step===null?"trace":`step ${e.step}`;return a("div",{class:"breakdown-row","data-testid":"breakdown-bar"},a("span",{class:"breakdown-label"},r),a("span",{class:"breakdown-bar","aria-label":r},...n),a("span",{class:"breakdown-total muted"},g(e.duration_ns)))}function Ot(e){if(e.ranks.length===0)return a("p",{class:"muted"},"No traces in this run: record some steps with profile_steps to see what each step is made of.");let t=a("div",{class:"legend"},...e.categories.map((r,s)=>a("span",{class:"legend-item"},a("span",{class:"legend-swatch",style:`background: ${r==="idle"?"var(--grid)":C(s)}`}),r))),n=e.ranks.map(({rank:r,steps:s})=>a("div",{class:"breakdown-rank"},a("h3",{},`rank ${r}`),...s.slice(0,Oe).map(o=>Gr(o,e.categories)),s.length>Oe?a("p",{class:"muted"},`First ${Oe} of ${s.length} steps.`):null));return a("div",{class:"breakdown","data-testid":"breakdown"},t,...n)}var Ft={key:"total_ns",direction:"desc"},z=(e,t,n,r)=>({key:e,label:t,numeric:!0,value:n,format:s=>g(n(s)),...r===void 0?{}:{title:r}}),Xr=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"host",label:"host",numeric:!1,value:e=>e.host},{key:"pid",label:"pid",numeric:!0,value:e=>e.pid,format:e=>String(e.pid)},{key:"status",label:"status",numeric:!1,value:e=>e.status},{key:"steps",label:"steps",numeric:!0,value:e=>e.steps,format:e=>y(e.steps)},z("mean","mean step",e=>e.step_time_ns?.mean??null),z("p50","p50 step",e=>e.step_time_ns?.p50??null),z("p95","p95 step",e=>e.step_time_ns?.p95??null),z("max","max step",e=>e.step_time_ns?.max??null)];function zr(e){let t=[{key:"name",label:"name",numeric:!1,value:n=>n.name},{key:"calls",label:"calls",numeric:!0,value:n=>n.calls,format:n=>y(n.calls)},z("total_ns","total",n=>n.total_ns,"Sum of the span's durations"),z("self_ns","self",n=>n.self_ns,"Total minus the time of direct child spans"),z("mean_ns","mean",n=>n.mean_ns),z("p50_ns","p50",n=>n.p50_ns),z("p95_ns","p95",n=>n.p95_ns),{key:"pct_of_step",label:"% of step",title:"Total as a share of all step time of the selected ranks (can exceed 100 % for spans outside steps)",numeric:!0,value:n=>n.pct_of_step,format:n=>J(n.pct_of_step)}];return e&&t.push(z("gpu_total_ns","GPU total",r=>r.gpu_total_ns,"Sum of the spans' CUDA-event durations")),t}function Ur(e){let t=H(),n=t.get("sort"),r=t.get("dir");return!e.some(s=>s.key===n)||r!=="asc"&&r!=="desc"?Ft:{key:n??Ft.key,direction:r}}function he(e,...t){return a("section",{class:"panel"},a("h2",{},e),...t)}function Kr(e){return e.length===0?null:a("section",{class:"warnings","data-testid":"warnings",role:"status"},a("h2",{},e.length===1?"1 warning while reading this run":`${e.length} warnings while reading this run`),a("ul",{},...e.map(t=>a("li",{},t))))}function Vr(e){let t=e.step_series.filter(i=>i.steps.length>0);if(t.length===0)return a("p",{class:"muted"},"No completed steps yet.");let n=e.ranks.map(i=>i.rank),r=Math.max(...t.map(i=>i.bucket)),s=B({series:t.map(i=>({label:`rank ${i.rank}`,color:C(n.indexOf(i.rank)),x:i.steps,y:i.time_ns})),height:260,xLabel:"step",formatX:i=>String(i),formatY:g,yTickFormat:ve,testId:"step-chart"}),o=r>1?a("p",{class:"muted"},`Each point is the mean of ${r} consecutive steps.`):null;return a("div",{},s,o)}function qr(e){if(e.spans.length===0)return a("p",{class:"muted"},"No timer spans in this run. Wrap code in MyTimer spans to see where step time goes.");let t=zr(e.spans.some(s=>s.gpu_total_ns!==null)),n=F({columns:t,rows:e.spans,testId:"span-table",rowTestId:"span-row",rowName:s=>s.name,sort:Ur(t),onSortChange:s=>P({sort:s.key,dir:s.direction})}),r=e.spans_truncated?a("p",{class:"muted"},`Showing the ${e.spans.length} spans with the largest total time.`):null;return a("div",{class:"table-scroll"},n,r)}function Yr(e){let{count:t,first:n,last:r}=e.steps,s=e.rank===null?`all ${e.ranks.length} ranks`:`rank ${e.rank}`;return t===0||n===null||r===null?`No completed steps (${s}).`:`${y(t)} steps, ${n}–${r} (${s}).`}var Wt=5;function jr(e,t,n){if(e.rows.length===0&&t.rows.length===0)return null;let r=(i,l)=>{let m=a("button",{type:"button",class:"link-button"},l);return m.addEventListener("click",()=>n(i,{})),m},s=e.rows.some(i=>i.device_self_ns>0),o=(i,l)=>a("ol",{class:"top-list","data-testid":l},...i.map(([m,c])=>a("li",{},a("span",{class:"top-name"},m),` ${c}`)));return he("Top operators and kernels",e.rows.length?a("div",{},a("h3",{},`Operators by ${s?"device":"host"} self time`),o(e.rows.map(i=>[i.name,g(s?i.device_self_ns:i.host_self_ns)]),"top-operators"),r("operators","All operators")):null,t.rows.length?a("div",{},a("h3",{},"Kernels by total time"),o(t.rows.map(i=>[i.name,g(i.total_ns)]),"top-kernels"),r("kernels","All kernels")):null)}function Jr(e,t,n,r,s){let o=F({columns:Xr,rows:e.ranks,testId:"rank-table",rowTestId:"rank-row",rowName:l=>String(l.rank),rowClass:l=>l.rank===e.rank?"selected":void 0}),i=t.filter(l=>e.rank===null||l.ranks.length===0||l.ranks.includes(e.rank));return a("div",{class:"overview","data-testid":"overview"},Kr(e.warnings),Se(i,s),he("Step-time breakdown",Ot(n)),he("Ranks",a("p",{class:"muted"},Yr(e)),a("div",{class:"table-scroll"},o)),he("Step time per rank",Vr(e)),he("Spans",qr(e)),r)}var Bt={id:"overview",label:"Overview",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,onRanks:s,navigate:o}){let[i,l,m,c,u]=await Promise.all([je(e,t,n,r),at(e,n,r),it(e,t,n,r),we(e,t,"name",Wt,n,r),ye(e,t,Wt,n,r)]);s(i.ranks);let d=jr(c,u,o);return Jr(i,l.findings,m,d,o)}};var We={window:null,selected:null,enabledRanks:null,search:""};function Fe(e){if(e===null||e.trim()==="")return null;let t=Number(e);return Number.isSafeInteger(t)?t:null}function Gt(e,t){if(e===null)return null;if(e==="")return[];let n=e.split(t).map(Fe);return n.every(r=>r!==null)?n:null}function Xt(){let e=H(),t=Fe(e.get("start")),n=Fe(e.get("end")),r=Gt(e.get("sel"),":"),[s,o]=r?.length===2?r:[];return{window:t!==null&&n!==null&&n>t?{start:t,end:n}:null,selected:s!==void 0&&o!==void 0?{rank:s,id:o}:null,enabledRanks:Gt(e.get("ranks"),","),search:e.get("q")??""}}function ee(e){let t={};e.window!==void 0&&(t.start=e.window&&String(Math.round(e.window.start)),t.end=e.window&&String(Math.round(e.window.end))),e.selected!==void 0&&(t.sel=e.selected&&`${e.selected.rank}:${e.selected.id}`),e.enabledRanks!==void 0&&(t.ranks=e.enabledRanks&&e.enabledRanks.join(",")),e.search!==void 0&&(t.q=e.search===""?null:e.search),P(t)}var Zr={clock_sync:"The collectors measured this rank's clock offset to rank 0.",collectives:"Offset fitted so that the same collectives end together on every rank.",steps:"Offset chosen so that this rank's step boundaries line up with the other ranks'.",reference:"Rank 0's own clock: the reference the other ranks are aligned to.",none:"Not aligned: no clock sync, collectives or steps to align with."};function zt(e){let{method:t,uncertainty_ns:n}=e;return t==="reference"||t==="none"?t:`${t} ±${g(n)}`}function Ut(e){let t=[Zr[e.method]??e.method];if(e.method!=="reference"&&e.method!=="none"){if(t.push(`Offset added to this rank's clock: ${g(e.offset_ns)}.`,`Remaining error at most ±${g(e.uncertainty_ns)}.`),e.method==="collectives"||e.method==="steps"){let n=e.outliers?`, ${e.outliers} set aside as outliers`:"";t.push(`Fitted on ${e.pairs} matched pairs${n}.`)}e.drift_ns_per_s!==null&&t.push(`Clock drift corrected: ${g(e.drift_ns_per_s)} per s.`)}return t}var Qr=1e3;function Kt(e,t){return t!==null&&e.set("ranks",t.join(",")),e}function Vt(e,t,n){return E(`./timeline/meta?${new URLSearchParams({run:e})}`,t,n)}function qt(e,t,n,r){let s=new URLSearchParams({run:e,start:String(t.start),end:String(t.end),width_px:String(t.widthPx)});return E(`./timeline/tiles?${Kt(s,t.ranks)}`,n,r)}function Be(e,t,n){let r=new URLSearchParams({run:e,rank:String(t.rank),id:String(t.id)});return E(`./timeline/event?${r}`,n)}function Yt(e,t,n,r){let s=new URLSearchParams({run:e,q:t,limit:String(Qr)});return E(`./timeline/search?${Kt(s,n)}`,r)}function jt(e,t,n){return e.map(({rank:r})=>{let s=a("button",{type:"button",class:"rank-toggle","aria-pressed":String(t(r)),"data-testid":"timeline-rank-toggle","data-rank":r,title:`Show or hide rank ${r}`},`rank ${r}`);return s.addEventListener("click",()=>n(r)),s})}function Jt(e,t){let n=a("select",{"data-testid":"timeline-step-select","aria-label":"Jump to step",disabled:e.length===0},a("option",{value:""},e.length===0?"No steps":"Jump to step…"),...e.map((r,s)=>a("option",{value:String(s)},`step ${r.step} (${g(r.end-r.start)})`)));return n.addEventListener("change",()=>{let r=e[Number(n.value)];n.value!==""&&r&&t(r)}),n}function es(e){return typeof e=="string"?e:JSON.stringify(e)}function V(e,t){return a("tr",{},a("th",{scope:"row"},e),a("td",{},t))}function ts(e){let{event:t,peer:n}=e,r=t.flow;if(r===null)return null;let o=t.kind==="runtime"?"Launches":"Launched by",i=n?.name??`event ${r.id}`,l=a("button",{type:"button",class:"link-button","data-testid":"timeline-flow-link"},`${i} (rank ${r.rank}, ${e.laneLabel(r.lane)}) →`);return l.addEventListener("click",()=>e.onJump({rank:r.rank,id:r.id})),V(o,l)}function Zt(e){let{event:t,zero:n}=e,r=a("button",{type:"button",class:"link-button"},"Zoom to event");r.addEventListener("click",e.onZoom);let s=Object.entries(t.args);return a("div",{class:"details-body"},a("div",{class:"details-header"},a("h2",{class:"details-title",title:t.name},t.name),r),a("table",{class:"details-table"},a("tbody",{},V("kind",t.kind),V("rank",String(t.rank)),V("lane",e.laneLabel(t.lane)),V("step",t.step===null?"—":String(t.step)),V("start",`${Z(t.start-n)} from run start`),V("duration",`${g(t.dur)} (${t.dur.toLocaleString("en-US")} ns)`),V("event id",String(t.id)),ts(e))),s.length===0?null:a("table",{class:"details-table details-args","data-testid":"timeline-details-args"},a("caption",{},"Arguments"),a("tbody",{},...s.map(([o,i])=>V(o,es(i))))))}function ns(e){return e.kind==="counter"?36:Math.max(1,e.rows)*18+6}function Qt(e,t,n){let r=[],s=new Map,o=0;for(let i of e.ranks){if(!t.has(i.rank))continue;let l=n.has(i.rank);if(r.push({type:"rank",rank:i,collapsed:l,top:o,height:24}),o+=24,!l)for(let m of i.lanes){let c={type:"lane",rank:i.rank,lane:m,top:o,height:ns(m)};r.push(c),s.set(m.id,c),o+=c.height}}return{bands:r,lanes:s,height:o}}function en(e,t){return e.bands.find(n=>t>=n.top&&t<n.top+n.height)??null}function ae(e,t){return e.top+3+t*18}function tn(e,t){let n=Math.floor((t-e.top-3)/18);return n>=0&&n<e.lane.rows?n:-1}function nn(e){return e.bands.flatMap(t=>t.type==="rank"&&!t.collapsed?[t.rank.rank]:[])}var rs=3,ss=.0015,os=16,as=400,is=.8,ls=.1,ds=Math.log(10),cs=1;function us(e){if(e.ctrlKey||e.metaKey||e.altKey)return null;let t=e.key.toLowerCase();return t==="w"||t==="a"||t==="s"||t==="d"?t:null}function rn(e,t){return t===WheelEvent.DOM_DELTA_LINE?e*os:t===WheelEvent.DOM_DELTA_PAGE?e*as:e}function sn(e,t){let n=null,r=new Set,s=0,o=(d,h)=>t.zoomAt(n,d==="w"?h:1/h),i=(d,h)=>t.panBy((d==="d"?1:-1)*h*t.timeAreaWidth()),l=d=>{d==="w"||d==="s"?o(d,is):i(d,ls)},m=(d,h)=>{d==="w"||d==="s"?o(d,Math.exp(-ds*h)):i(d,cs*h)},c=d=>{if(r.size===0)return;let h=Math.min(.05,(d-s)/1e3);s=d;for(let p of r)m(p,h);requestAnimationFrame(c)};e.addEventListener("keydown",d=>{if(d.key==="Escape"){t.escape();return}let h=us(d);h!==null&&(d.preventDefault(),!(d.repeat||r.has(h))&&(l(h),r.add(h),r.size===1&&(s=performance.now(),requestAnimationFrame(c))))}),e.addEventListener("keyup",d=>{r.delete(d.key.toLowerCase())}),e.addEventListener("blur",()=>r.clear()),e.addEventListener("wheel",d=>{if(d.offsetX<220)return;d.preventDefault();let h=rn(d.deltaX,d.deltaMode),p=rn(d.deltaY,d.deltaMode);Math.abs(h)>Math.abs(p)?t.panBy(h):t.zoomAt(d.offsetX,Math.exp(p*ss))},{passive:!1});let u=null;e.addEventListener("pointerdown",d=>{d.button===0&&(e.setPointerCapture(d.pointerId),u={startX:d.offsetX,lastX:d.offsetX,moved:!1})}),e.addEventListener("pointermove",d=>{if(n=d.offsetX>=220?d.offsetX:null,u===null){t.hoverAt(d.offsetX,d.offsetY);return}Math.abs(d.offsetX-u.startX)>rs&&(u.moved=!0),u.moved&&(t.panBy(u.lastX-d.offsetX),u.lastX=d.offsetX)}),e.addEventListener("pointerup",d=>{u!==null&&!u.moved&&t.clickAt(d.offsetX,d.offsetY),u=null}),e.addEventListener("pointercancel",()=>{u=null}),e.addEventListener("pointerleave",()=>{n=null,t.hoverEnd()})}var ms=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]],hs=1e4;function ps(e){let t=10**Math.floor(Math.log10(e));return[1,2,5,10].map(n=>n*t).find(n=>n>=e)??10*t}function on(e){return ms.find(([t])=>e>=t)??[1,"ns"]}function an(e,t){return Math.max(0,Math.ceil(-Math.log10(e/t)-1e-9))}function ln(e,t,n,r,s){let o=Math.max(1,ps((t-e)/Math.max(1,n)*r)),i=Math.ceil((e-s)/o)*o,l=Math.abs(i)/o>hs,m=o*100,c=l?Math.floor(i/m)*m:0,u=[];for(let w=i;s+w<t;w+=o)u.push(w);let d=Math.max(o,...u.map(w=>Math.abs(w-c))),[h,p]=on(d),f=an(o,h),v=u.map(w=>`${l?"+":""}${((w-c)/h).toFixed(f)} ${p}`),T=null;if(l){let[w,k]=on(Math.abs(c)||1);T=`${(c/w).toFixed(an(m,w))} ${k}`}return{ticks:u.map(w=>s+w),labels:v,baseLabel:T}}var Ee="11px Roboto, 'Helvetica Neue', Arial, sans-serif",fs="500 12px Roboto, 'Helvetica Neue', Arial, sans-serif",bs=110,gs=1,vs=28,ws=.45;function ys(e){let{window:t,width:n}=e,r=(n-220)/Math.max(1,t.end-t.start);return{x:s=>220+(s-t.start)*r,left:220,right:n}}var Xe=0;function xs(e){if(Xe===0){let t="aten::addmm_sgemm_128x64_nn cudaLaunchKernel ProfilerStep#12";Xe=e.measureText(t).width/t.length}return Xe}function ze(e,t,n){let r=Math.floor(n/xs(e));return r<2?null:t.length<=r?t:`${t.slice(0,r-1)}…`}function ks(e){let t=e.scrollTop,n=t+e.height-28;return e.layout.bands.filter(r=>r.type==="lane"&&r.top+r.height>t&&r.top<n)}function Ss(e,t,n,r,s){let{theme:o,tile:i}=s,l=c=>{let u=r.x(t.start[c]??0),d=r.x(t.end[c]??0);if(d<r.left||u>r.right)return null;let h=Math.round(Math.max(u,r.left-1)),p=Math.round(Math.min(d,r.right+1));return[h,Math.max(p-h,gs)]},m=(c,u)=>{e.rect(u[0],ae(n,t.row[c]??0)+1,u[1],16)};for(let c=0;c<40;c+=1){let u=t.colorOffsets[c]??0,d=t.colorOffsets[c+1]??0;if(u!==d){e.fillStyle=o.boxes[c]??o.accent;for(let h of[!1,!0]){e.beginPath();for(let p=u;p<d;p+=1){let f=t.byColor[p]??0;if((t.count[f]??1)>1!==h)continue;let v=l(f);v&&m(f,v)}e.globalAlpha=h?ws:1,e.fill()}}}e.globalAlpha=1,e.fillStyle=o.boxText;for(let c=0;c<t.size;c+=1){let u=l(c);if(u===null||u[1]<vs)continue;let d=i?.names[t.name[c]??0]??"",h=t.count[c]??1,p=ze(e,h>1?`${y(h)} × ${d}`:d,u[1]-6);p!==null&&e.fillText(p,u[0]+3,ae(n,t.row[c]??0)+18/2)}}function cn(e){let t=0;for(let n of e.value)t=Math.max(t,n);return t||1}function Ke(e,t){return/bytes/i.test(e)?q(t):y(t)}function Ts(e,t,n,r,s){let{t:o,value:i}=t;if(o.length===0)return;let l=cn(t),m=n.top+n.height-2,c=d=>m-d/l*(n.height-8),u=Math.min(r.x(s.tile?.end??s.window.end),r.right);e.beginPath(),e.moveTo(r.x(o[0]??0),m);for(let d=0;d<o.length;d+=1){let h=Math.max(r.x(o[d]??0),r.left-1),p=Math.min(d+1<o.length?r.x(o[d+1]??0):u,r.right+1),f=c(i[d]??0);e.lineTo(h,f),e.lineTo(p,f)}e.lineTo(u,m),e.closePath(),e.globalAlpha=.3,e.fillStyle=s.theme.accent,e.fill(),e.globalAlpha=1,e.strokeStyle=s.theme.accent,e.lineWidth=1,e.stroke()}function _s(e,t,n){let r=t.layout.lanes.get(e.lane);if(!r)return null;let s=Math.max(n.x(e.start),n.left-2),o=Math.min(n.x(e.end),n.right+2);return[s,ae(r,e.row),Math.max(o-s,2)]}function dn(e,t,n,r,s){let o=_s(t,n,r);o&&(e.lineWidth=s,e.strokeStyle=n.theme.text,e.strokeRect(o[0],o[1]+.5,o[2],17))}function Ms(e,t,n,r){let s=n.layout.lanes.get(t.from.lane),o=n.layout.lanes.get(t.to.lane);if(!s||!o)return;let i=r.x(t.from.start),l=ae(s,t.from.row)+18/2,m=r.x(t.to.start),c=ae(o,t.to.row)+18/2,u=Math.max(20,Math.abs(c-l)/2);e.strokeStyle=n.theme.accent,e.fillStyle=n.theme.accent,e.lineWidth=1.5,e.beginPath(),e.moveTo(i,l),e.bezierCurveTo(i,l+Math.sign(c-l||1)*u,m,c-Math.sign(c-l||1)*u,m,c),e.stroke();let d=Math.sign(c-l||1);e.beginPath(),e.moveTo(m,c),e.lineTo(m-4,c-d*8),e.lineTo(m+4,c-d*8),e.closePath(),e.fill();for(let[h,p]of[[i,l],[m,c]])e.beginPath(),e.arc(h,p,3,0,2*Math.PI),e.fill()}function Rs(e,t){let{theme:n,width:r}=t,s=t.scrollTop,o=s+t.height-28;e.fillStyle=n.surface,e.fillRect(0,s,220,o-s),e.textBaseline="middle";for(let i of t.layout.bands)if(!(i.top+i.height<=s||i.top>=o)){if(i.type==="rank"){e.fillStyle=n.grid,e.fillRect(0,i.top,r,24),e.font=fs,e.fillStyle=n.text;let l=`${i.collapsed?"▸":"▾"} rank ${i.rank.rank}`;e.fillText(l,8,i.top+24/2),e.font=Ee,e.fillStyle=n.mutedText;let m=ze(e,zt(i.rank.alignment),140);m&&e.fillText(m,76,i.top+24/2)}else{e.font=Ee,e.fillStyle=n.text;let l=ze(e,i.lane.label,196);l&&e.fillText(l,16,i.top+Math.min(i.height,24)/2);let m=t.tile?.counters.get(i.lane.id);if(m&&m.t.length>0){e.fillStyle=n.mutedText;let c=`max ${Ke(i.lane.label,cn(m))}`;e.fillText(c,16,i.top+i.height-9)}}e.fillStyle=n.border,e.fillRect(0,i.top+i.height-1,r,1)}e.fillRect(219,s,1,o-s)}function Es(e,t,n,r){let{theme:s,width:o}=n;e.fillStyle=s.background,e.fillRect(0,0,o,28),e.fillStyle=s.border,e.fillRect(0,27,o,1),e.font=Ee,e.textBaseline="middle",e.fillStyle=s.mutedText,e.fillText(t.baseLabel?`from ${t.baseLabel}`:"from run start",8,28/2),t.ticks.forEach((i,l)=>{let m=Math.round(r.x(i))+.5;e.fillRect(m,22,1,5),e.fillText(t.labels[l]??"",m+3,28/2-2)})}function un(e,t){let{width:n,height:r,theme:s,tile:o,window:i}=t,l=ys(t),m=ln(i.start,i.end,n-220,bs,t.zero);e.fillStyle=s.background,e.fillRect(0,0,n,r),e.font=Ee,e.textBaseline="middle",e.save(),e.beginPath(),e.rect(0,28,n,r-28),e.clip(),e.translate(0,28-t.scrollTop),Rs(e,t),e.save(),e.beginPath(),e.rect(220,t.scrollTop,n-220,r),e.clip(),e.fillStyle=s.grid;for(let c of m.ticks)e.fillRect(Math.round(l.x(c)),t.scrollTop,1,r);for(let c of ks(t)){let u=o?.lanes.get(c.lane.id);u&&Ss(e,u,c,l,t);let d=o?.counters.get(c.lane.id);d&&Ts(e,d,c,l,t)}t.hovered&&dn(e,t.hovered,t,l,1),t.selected&&dn(e,t.selected,t,l,2),t.flow&&Ms(e,t.flow,t,l),e.restore(),e.restore(),Es(e,m,t,l),t.emptyMessage!==null&&(e.fillStyle=s.mutedText,e.textAlign="center",e.fillText(t.emptyMessage,220+(n-220)/2,68),e.textAlign="start")}var As=250,Ae=class{constructor(t){this.options=t;this.input=a("input",{type:"search",class:"search-input",placeholder:"Search events by name","aria-label":"Search events by name","data-testid":"timeline-search",value:t.initialText});let n=a("button",{type:"button","data-testid":"timeline-prev",title:"Previous match (Shift+Enter)"},"‹ Prev"),r=a("button",{type:"button","data-testid":"timeline-next",title:"Next match (Enter)"},"Next ›");n.addEventListener("click",()=>{this.step(-1)}),r.addEventListener("click",()=>{this.step(1)}),this.input.addEventListener("input",()=>{this.options.onTextChange(this.text()),clearTimeout(this.typingTimer),this.typingTimer=window.setTimeout(()=>{this.refresh()},As)}),this.input.addEventListener("keydown",s=>{s.key==="Enter"&&(s.preventDefault(),this.step(s.shiftKey?-1:1))}),this.element=a("div",{class:"search",role:"search"},this.input,this.count,n,r)}options;element;input;count=a("span",{class:"search-count","data-testid":"timeline-search-count","aria-live":"polite"});result=null;resultText="";index=-1;inFlight=new AbortController;typingTimer=0;text(){return this.input.value.trim()}refresh(){clearTimeout(this.typingTimer),this.inFlight.abort(),this.inFlight=new AbortController;let t=this.inFlight.signal,n=this.text();return this.index=-1,n===""?(this.result=null,this.resultText="",this.showCount(),Promise.resolve()):(this.count.textContent="…",this.options.search(n,t).then(r=>{t.aborted||(this.result=r,this.resultText=n,this.showCount())},r=>{t.aborted||(this.result=null,this.count.textContent="search failed",this.count.title=r instanceof I?r.message:String(r))}))}async step(t){(this.result===null||this.resultText!==this.text())&&await this.refresh();let n=this.result?.matches??[];if(n.length===0)return;if(this.index===-1){let s=this.options.viewStart(),o=n.findIndex(l=>l.start>=s),i=o===-1?0:o;this.index=t===1?i:(i-1+n.length)%n.length}else this.index=(this.index+t+n.length)%n.length;this.showCount();let r=n[this.index];r&&this.options.onMatch(r)}showCount(){let t=this.result;this.count.title="",t===null?this.count.textContent="":t.total===0?this.count.textContent="no matches":this.index===-1?this.count.textContent=`${y(t.total)} ${t.total===1?"match":"matches"}`:this.count.textContent=`${y(this.index+1)} / ${y(t.total)}`,t!==null&&t.total>t.matches.length&&(this.count.title=`Next and previous visit the first ${y(t.matches.length)} matches in time order.`)}};function mn(e,t){let n=new Uint32Array(t);for(let i=0;i<e.length;i+=1){let l=e[i]??0;n[l]=(n[l]??0)+1}let r=new Uint32Array(t+1);for(let i=0;i<t;i+=1)r[i+1]=(r[i]??0)+(n[i]??0);let s=r.slice(0,t),o=new Uint32Array(e.length);for(let i=0;i<e.length;i+=1){let l=e[i]??0;o[s[l]??0]=i,s[l]=(s[l]??0)+1}return[o,r]}function Ls(e,t,n){for(let r=0;r+1<t.length;r+=1){let s=e.subarray(t[r]??0,t[r+1]??0);for(let o=1;o<s.length;o+=1)if((n[s[o]??0]??0)<(n[s[o-1]??0]??0)){s.sort((i,l)=>(n[i]??0)-(n[l]??0));break}}}function $s(e,t){let n=e.start.length,r=new Float64Array(n),s=new Float64Array(n),o=new Uint16Array(n),i=new Uint32Array(n),l=new Uint8Array(n),m=0;for(let p=0;p<n;p+=1){let f=e.start[p]??0;r[p]=f,s[p]=f+(e.dur[p]??0);let v=e.row[p]??0;o[p]=v,m=Math.max(m,v+1);let T=e.name[p]??0;i[p]=T,l[p]=t[T]??0}let[c,u]=mn(o,m);Ls(c,u,r);let[d,h]=mn(l,40);return{size:n,start:r,end:s,row:o,name:i,count:Float64Array.from(e.count),eventId:Float64Array.from(e.id),byColor:d,colorOffsets:h,byRow:c,rowOffsets:u}}function hn(e,t){let n=Uint8Array.from(e.names,Te);return{start:e.start,end:e.end,nsPerPx:e.ns_per_px,ranksKey:t,names:e.names,lanes:new Map(e.lanes.map(r=>[r.id,$s(r.boxes,n)])),counters:new Map(e.counters.map(r=>[r.id,r])),flows:e.flows}}function pn(e,t,n,r){let s=e.rowOffsets[t],o=e.rowOffsets[t+1];if(s===void 0||o===void 0)return-1;let i=s,l=o;for(;i<l;){let u=i+l>>1;(e.start[e.byRow[u]??0]??0)<=n+r?i=u+1:l=u}let m=-1,c=1/0;for(let u=i-1;u>=Math.max(s,i-2);u-=1){let d=e.byRow[u]??0,h=e.start[d]??0,p=e.end[d]??0,f=n<h?h-n:n>p?n-p:0;f<=r&&f<c&&(m=d,c=f)}return m}var Ps=60,fn=8192,Cs=1.5;function gn(e){return e===null?"all":e.join(",")}function bn(e,t){if(e===null||e.ranksKey!==gn(t.ranks))return!1;let{window:n,extent:r}=t,s=(n.end-n.start)/t.widthPx;return e.start<=Math.max(n.start,r.start)&&e.end>=Math.min(n.end,r.end)&&e.nsPerPx<=s*Cs}function Ds(e){let{window:t,extent:n}=e,r=t.end-t.start,s=r/e.widthPx,o=Math.max(0,Math.min(r/2,(fn*s-r)/2)),i=Math.floor(Math.max(n.start,t.start-o)),l=Math.ceil(Math.min(n.end,t.end+o)),m=Math.min(fn,Math.max(1,Math.round((l-i)/s)));return{start:i,end:Math.max(l,i+1),widthPx:m,ranks:e.ranks,nsPerPx:(l-i)/m,ranksKey:gn(e.ranks)}}var Le=class{constructor(t,n){this.run=t;this.listener=n}run;listener;timer=0;inFlight=null;want(t,n){clearTimeout(this.timer),!(bn(n,t)||bn(this.inFlight?.query??null,t))&&(this.timer=window.setTimeout(()=>this.fetch(t),Ps))}refetch(t){clearTimeout(this.timer),this.fetch(t)}cancel(){clearTimeout(this.timer),this.inFlight?.controller.abort(),this.inFlight=null}fetch(t){this.cancel();let n=Ds(t),r=new AbortController;this.inFlight={query:n,controller:r},qt(this.run,n,r.signal,this.listener.onProgress).then(s=>{r.signal.aborted||(this.inFlight=null,this.listener.onTile(hn(s,n.ranksKey)))},s=>{r.signal.aborted||(this.inFlight=null,this.listener.onError(s))})}};var Ns=200,Hs=2,Is=1;function vn(e,t){return e!==null&&t!==null&&e.rank===t.rank&&e.id===t.id}var $e=class{constructor(t,n){this.run=t;this.window=n.window,this.selected=n.selected,this.enabledRanks=n.enabledRanks&&new Set(n.enabledRanks);let r=this.canvas.getContext("2d",{alpha:!1});if(r===null)throw new Error("This browser cannot draw on a canvas.");this.ctx=r,this.theme=de(),this.selected&&(this.canvas.dataset.selected=`${this.selected.rank}:${this.selected.id}`),this.search=new Ae({initialText:n.search,search:(o,i)=>Yt(this.run,o,this.enabledRankList(),i),onMatch:o=>this.showMatch(o),onTextChange:o=>ee({search:o}),viewStart:()=>this.window?.start??0}),this.tiles=new Le(t,{onTile:o=>{this.tile=o,this.status.hidden=!0,this.scheduleDraw()},onProgress:o=>this.showProgress(o),onError:o=>this.showError(o)});let s=a("button",{type:"button","data-testid":"timeline-reset"},"Reset zoom");s.addEventListener("click",()=>this.setWindow(this.bounds)),this.scroller.append(this.canvas,this.spacer),this.scroller.addEventListener("scroll",()=>this.scheduleDraw()),this.element=a("div",{class:"timeline","data-testid":"timeline","data-run":t},a("div",{class:"timeline-toolbar"},this.rankToggleGroup,this.stepPicker,s,this.search.element,a("span",{class:"muted hint"},"W/S or wheel: zoom · A/D or drag: pan · Esc: deselect")),a("div",{class:"timeline-stage"},this.scroller,this.tooltip,this.status),this.details),this.attachObservers(),sn(this.canvas,{zoomAt:(o,i)=>this.zoomAt(o,i),panBy:o=>this.panBy(o),timeAreaWidth:()=>this.timeAreaWidth(),clickAt:(o,i)=>this.clickAt(o,i),hoverAt:(o,i)=>this.hoverAt(o,i),hoverEnd:()=>this.setHover(null,null),escape:()=>this.select(null,!1)})}run;element;loaded=!1;meta=null;layout={bands:[],lanes:new Map,height:0};bounds={start:0,end:1};window;enabledRanks;collapsedRanks=new Set;tile=null;selected;selectedEvent=null;flowPeer=null;hovered=null;selectionRequest=new AbortController;canvas=a("canvas",{class:"timeline-canvas",tabindex:0,"data-testid":"timeline-canvas","aria-label":"Timeline: W/S or the wheel zoom, A/D or dragging pan, click selects"});ctx;theme;scroller=a("div",{class:"timeline-scroller"});spacer=a("div",{class:"timeline-spacer"});tooltip=a("div",{class:"chart-tooltip timeline-tooltip",hidden:!0});status=a("div",{class:"timeline-status","data-testid":"timeline-status",hidden:!0});details=a("section",{class:"timeline-details","data-testid":"timeline-details","aria-live":"polite"},a("p",{class:"muted"},"Click an event to see its details."));rankToggleGroup=a("div",{class:"rank-toggles",role:"group","aria-label":"Ranks"});stepPicker=a("label",{class:"step-picker"});search;tiles;observers=[];size={width:0,height:0,dpr:1};drawPending=!1;hashTimer=0;async load(t,n){let r=await Vt(this.run,t,n);t.aborted||(this.meta=r,this.loaded=!0,this.bounds=Pt(r.start,r.end),this.relayout(),this.setWindow(this.window??this.bounds),this.stepPicker.replaceChildren(Jt(r.steps,s=>this.setWindow(Q(s.start,s.end,.02,this.bounds)))),this.tile=null,this.tiles.cancel(),this.requestTiles(!0),this.selected&&this.select(this.selected,!1),this.search.refresh())}showStep(t){let n=this.meta?.steps.find(r=>r.step===t);n&&this.setWindow(Q(n.start,n.end,.02,this.bounds))}dispose(){this.tiles.cancel(),this.selectionRequest.abort();for(let t of this.observers)t.disconnect()}attachObservers(){let t=new ResizeObserver(()=>this.resize());t.observe(this.scroller);let n=new MutationObserver(()=>{this.theme=de(),this.scheduleDraw()});n.observe(document.documentElement,{attributes:!0,attributeFilter:["data-theme"]}),this.observers.push(t,n)}enabledRankList(){return this.enabledRanks&&[...this.enabledRanks].sort((t,n)=>t-n)}isRankEnabled(t){return this.enabledRanks===null||this.enabledRanks.has(t)}relayout(){let t=this.meta;if(!t)return;let n=new Set(t.ranks.map(r=>r.rank).filter(r=>this.isRankEnabled(r)));this.layout=Qt(t,n,this.collapsedRanks),this.rankToggleGroup.replaceChildren(...jt(t.ranks,r=>this.isRankEnabled(r),r=>this.toggleRank(r))),this.resizeSpacer(),this.scheduleDraw()}toggleRank(t){let n=this.meta?.ranks.map(s=>s.rank)??[],r=this.enabledRanks??new Set(n);r.has(t)?r.delete(t):r.add(t),this.enabledRanks=n.every(s=>r.has(s))?null:r,ee({enabledRanks:this.enabledRankList()}),this.relayout(),this.requestTiles(!1),this.search.refresh()}toggleCollapsed(t){this.collapsedRanks.has(t)?this.collapsedRanks.delete(t):this.collapsedRanks.add(t),this.relayout(),this.requestTiles(!1)}setWindow(t){this.window=Y(t,this.bounds),this.canvas.dataset.start=String(Math.round(this.window.start)),this.canvas.dataset.end=String(Math.round(this.window.end)),this.scheduleDraw(),this.requestTiles(!1),clearTimeout(this.hashTimer),this.hashTimer=window.setTimeout(()=>ee({window:this.window}),Ns)}requestTiles(t){let n=this.meta,r=this.window,s=this.timeAreaWidth();if(!n||!r||s<=0)return;let o=nn(this.layout);if(o.length===0)return;let i=o.length===n.ranks.length,l={window:r,widthPx:s,ranks:i?null:o,extent:{start:n.start,end:n.end}};t?this.tiles.refetch(l):this.tiles.want(l,this.tile)}timeAreaWidth(){return Math.max(0,this.size.width-220)}timeAt(t){let n=this.window??this.bounds;return n.start+(t-220)/Math.max(1,this.timeAreaWidth())*(n.end-n.start)}nsPerPx(){let t=this.window??this.bounds;return(t.end-t.start)/Math.max(1,this.timeAreaWidth())}zoomAt(t,n){let r=this.window;if(!r)return;let s=t===null?(r.start+r.end)/2:this.timeAt(t);this.navigateTo(Me(r,s,n,this.bounds))}panBy(t){this.window&&this.navigateTo(ce(this.window,t*this.nsPerPx(),this.bounds))}navigateTo(t){(t.start!==this.window?.start||t.end!==this.window.end)&&this.setWindow(t)}select(t,n){this.selectionRequest.abort(),this.selectionRequest=new AbortController;let r=this.selectionRequest.signal;if(vn(t,this.selectedEvent)||(this.selectedEvent=null,this.flowPeer=null),this.selected=t,t?this.canvas.dataset.selected=`${t.rank}:${t.id}`:delete this.canvas.dataset.selected,ee({selected:t}),this.scheduleDraw(),t===null){this.details.replaceChildren(a("p",{class:"muted"},"Click an event to see its details."));return}this.loadSelection(t,n,r)}async loadSelection(t,n,r){try{let s=await Be(this.run,t,r);if(r.aborted)return;if(this.selectedEvent=s,n&&this.window&&this.setWindow($t(this.window,s.start,s.start+s.dur,this.bounds)),this.showDetails(),this.scheduleDraw(),s.flow){if(this.flowPeer=await Be(this.run,s.flow,r),r.aborted)return;this.showDetails(),this.scheduleDraw()}}catch(s){if(r.aborted)return;this.details.replaceChildren(a("p",{class:"error",role:"alert"},`Could not load the event: ${s instanceof I?s.message:String(s)}`))}}showDetails(){let t=this.selectedEvent;t&&this.details.replaceChildren(Zt({event:t,peer:this.flowPeer,zero:this.meta?.start??0,laneLabel:n=>this.laneLabel(n),onJump:n=>{this.revealRank(n.rank),this.select(n,!0)},onZoom:()=>this.setWindow(Q(t.start,t.start+t.dur,.5,this.bounds))}))}laneLabel(t){for(let n of this.meta?.ranks??[]){let r=n.lanes.find(s=>s.id===t);if(r)return r.label}return t}revealRank(t){this.collapsedRanks.delete(t)&&(this.relayout(),this.requestTiles(!1))}showMatch(t){this.revealRank(t.rank),this.setWindow(Q(t.start,t.start+t.dur,Is,this.bounds)),this.select({rank:t.rank,id:t.id},!1)}hitTest(t,n){if(n<28)return null;let r=en(this.layout,n-28+this.scroller.scrollTop);if(!r)return null;if(r.type==="rank")return{rankBand:r.rank.rank};let s=this.timeAt(t),o=tn(r,n-28+this.scroller.scrollTop),i=this.tile?.lanes.get(r.lane.id),l=i&&o>=0&&t>=220?pn(i,o,s,Hs*this.nsPerPx()):-1;return{band:r,box:l,row:o,time:s}}clickAt(t,n){this.canvas.focus();let r=this.hitTest(t,n);if(r&&"rankBand"in r){this.toggleCollapsed(r.rankBand);return}let s=r&&this.tile?.lanes.get(r.band.lane.id);if(!r||!s||r.box<0){t>=220&&this.select(null,!1);return}let o=s.count[r.box]??1,i=s.start[r.box]??0,l=s.end[r.box]??0;o>1?this.setWindow(Q(i,l,.1,this.bounds)):this.select({rank:r.band.rank,id:s.eventId[r.box]??-1},!1)}hoverAt(t,n){let r=this.hitTest(t,n);if(r===null)return this.setHover(null,null);if("rankBand"in r){let h=this.meta?.ranks.find(p=>p.rank===r.rankBand);return this.canvas.style.cursor="pointer",this.setHover(null,h?[`rank ${h.rank} (click to ${this.collapsedRanks.has(h.rank)?"expand":"collapse"})`,...Ut(h.alignment)]:null,t,n)}this.canvas.style.cursor="";let s=r.band.lane;if(t<220)return this.setHover(null,[s.label,`rank ${r.band.rank} · ${s.kind}`],t,n);if(s.kind==="counter")return this.setHover(null,this.counterTooltip(r),t,n);let o=this.tile?.lanes.get(s.id);if(!o||r.box<0)return this.setHover(null,null);let i=o.start[r.box]??0,l=o.end[r.box]??0,m=o.count[r.box]??1,c=this.tile?.names[o.name[r.box]??0]??"",u=this.meta?.start??0,d=m>1?[`${y(m)} events`,`longest: ${c}`,`over ${g(l-i)} from ${Z(i-u)}`,"click to zoom in"]:[c,`duration ${g(l-i)}`,`start ${Z(i-u)}`];this.setHover({lane:s.id,row:r.row,start:i,end:l},d,t,n)}counterTooltip(t){let n=this.tile?.counters.get(t.band.lane.id);if(!n)return null;let r=-1;for(let o=0;o<n.t.length&&(n.t[o]??0)<=t.time;o+=1)r=o;let s=n.value[r];return s===void 0?null:[t.band.lane.label,Ke(t.band.lane.label,s)]}setHover(t,n,r=0,s=0){if(this.hovered=t,this.scheduleDraw(),n===null){this.tooltip.hidden=!0;return}let[o,...i]=n;this.tooltip.replaceChildren(a("div",{class:"tooltip-title"},o??""),...i.map(m=>a("div",{},m))),this.tooltip.hidden=!1;let l=r+16+this.tooltip.offsetWidth>this.size.width;this.tooltip.style.left=`${l?r-12-this.tooltip.offsetWidth:r+16}px`,this.tooltip.style.top=`${s+16}px`}showProgress(t){let n=Math.round(Math.min(1,Math.max(0,t.fraction))*100);this.status.removeAttribute("role"),this.status.textContent=`Reading run files… ${n} % (${q(t.done_bytes)} of ${q(t.total_bytes)})`,this.status.hidden=!1}showError(t){let n=t instanceof I?`${t.message} (${t.code})`:String(t);this.status.setAttribute("role","alert"),this.status.textContent=`Could not load this part of the timeline: ${n}`,this.status.hidden=!1}resize(){let t=this.scroller.clientWidth,n=this.scroller.clientHeight,r=window.devicePixelRatio||1;t===this.size.width&&n===this.size.height&&r===this.size.dpr||(this.size={width:t,height:n,dpr:r},!(t===0||n===0)&&(this.canvas.style.width=`${t}px`,this.canvas.style.height=`${n}px`,this.canvas.width=Math.round(t*r),this.canvas.height=Math.round(n*r),this.resizeSpacer(),this.requestTiles(!1),this.drawNow()))}resizeSpacer(){this.spacer.style.height=`${Math.max(0,28+this.layout.height-this.size.height)}px`}scheduleDraw(){this.drawPending||(this.drawPending=!0,requestAnimationFrame(()=>this.drawNow()))}drawNow(){this.drawPending=!1;let{width:t,height:n,dpr:r}=this.size;t===0||n===0||!this.window||(this.ctx.setTransform(r,0,0,r,0,0),un(this.ctx,{width:t,height:n,scrollTop:this.scroller.scrollTop,window:this.window,zero:this.meta?.start??0,layout:this.layout,tile:this.tile,theme:this.theme,hovered:this.hovered,...this.selectionSpans(),emptyMessage:this.emptyMessage()}))}emptyMessage(){return this.layout.bands.length>0?null:this.meta?.ranks.length?"Every rank is hidden: turn one on with the rank buttons above.":"This run has no timeline events: no MyTimer spans and no profiler traces yet."}selectionSpans(){let t=this.selectedEvent;if(!t||!vn(t,this.selected))return{selected:null,flow:null};let n=o=>({lane:o.lane,row:o.row,start:o.start,end:o.start+o.dur}),r=n(t),s=this.flowPeer;return s?t.kind==="runtime"?{selected:r,flow:{from:r,to:n(s)}}:{selected:r,flow:{from:n(s),to:r}}:{selected:r,flow:null}}};var pe=null,Ve=!1;function Os(e){if(pe?.run===e)return pe;pe?.dispose();let t=Ve?We:Xt();return Ve&&ee(We),Ve=!0,pe=new $e(e,t),pe}var wn={id:"timeline",label:"Timeline",usesRankSelect:!1,async show({run:e,signal:t,refresh:n,onProgress:r,params:s}){let o=Os(e);(n||!o.loaded)&&await o.load(t,r);let i=Number(s.step);return s.step!=null&&Number.isInteger(i)&&o.showStep(i),o.element}};var te=[Bt,wn,kt,mt,xt,It,Lt];var qe="";function yn(e){let t=te[0];if(t===void 0)throw new Error("no dashboards registered");return te.find(n=>n.id===e)??t}function Fs(e){let t=Math.round(Math.min(1,Math.max(0,e.fraction))*100),n=a("div",{class:"progress-bar"});return n.style.width=`${t}%`,a("div",{class:"progress","data-testid":"progress"},a("div",{class:"progress-track",role:"progressbar","aria-valuemin":0,"aria-valuemax":100,"aria-valuenow":t},n),a("p",{},`Reading run files… ${t} % (${q(e.done_bytes)} of ${q(e.total_bytes)})`))}function xn(e,t){let n=t instanceof I?`${t.message} (${t.code})`:String(t);return a("div",{class:"error","data-testid":"error",role:"alert"},a("strong",{},e),a("p",{},n))}function Ws(){return a("div",{class:"empty","data-testid":"empty"},a("h2",{},"No runs yet"),a("p",{},"This logdir holds no tb-perf runs. See the README quick start to record one with the collectors (or point TensorBoard at a torch.profiler trace directory), then press TensorBoard's reload button."))}function kn(e){return e instanceof DOMException&&e.name==="AbortError"}var Pe=class{runs=[];run;rank;dashboard;inFlight=new AbortController;runSelect=a("select",{"data-testid":"run-select","aria-label":"Run"});runStatus=a("span",{class:"badge","data-testid":"run-status"});rankSelect=a("select",{"data-testid":"rank-select","aria-label":"Rank"});rankLabel=a("label",{},"Rank ",this.rankSelect);tabs=te.map(t=>a("button",{type:"button",role:"tab",class:"tab","data-testid":`tab-${t.id}`},t.label));toolbar=a("header",{class:"toolbar",hidden:!0},a("nav",{class:"tabs",role:"tablist","aria-label":"Dashboards"},...this.tabs),a("label",{},"Run ",this.runSelect),this.runStatus,this.rankLabel);content=a("main",{class:"content"},a("p",{class:"muted"},"Loading runs…"));constructor(t){let n=H();this.run=n.get("run");let r=Number.parseInt(n.get("rank")??"",10);this.rank=Number.isInteger(r)?r:null,this.dashboard=yn(n.get("dashboard")),this.showActiveTab(),this.tabs.forEach((s,o)=>s.addEventListener("click",()=>{let i=te[o];i===void 0||i===this.dashboard||this.open(i,{})})),this.runSelect.addEventListener("change",()=>{this.run=this.runSelect.value,this.showSelectedRun(),this.loadDashboard(this.restart(),!0)}),this.rankSelect.addEventListener("change",()=>{this.rank=this.rankSelect.value===qe?null:Number(this.rankSelect.value),this.saveSelection(),this.loadDashboard(this.restart(),!0)}),t.replaceChildren(a("div",{class:"app"},this.toolbar,this.content))}async reload(){let t=this.restart();try{this.runs=await Ye(t)}catch(n){kn(n)||this.content.replaceChildren(xn("Could not list the runs",n));return}if(this.toolbar.hidden=this.runs.length===0,this.runs.length===0){this.run=null,this.content.replaceChildren(Ws());return}this.runSelect.replaceChildren(...this.runs.map(n=>a("option",{value:n.name},`${n.name} (${n.status})`))),this.runs.some(n=>n.name===this.run)||(this.run=this.runs[0]?.name??null),this.showSelectedRun(),await this.loadDashboard(t,!0)}restart(){return this.inFlight.abort(),this.inFlight=new AbortController,this.inFlight.signal}open(t,n){this.dashboard=t;let r=Number(n.rank);t.usesRankSelect&&n.rank!=null&&Number.isInteger(r)&&(this.rank=r,this.rankSelect.value=String(r)),this.showActiveTab(),this.saveSelection(),this.loadDashboard(this.restart(),!1,n)}showActiveTab(){this.tabs.forEach((t,n)=>{let r=te[n]===this.dashboard;t.setAttribute("aria-selected",String(r)),t.classList.toggle("active",r)}),this.rankLabel.hidden=!this.dashboard.usesRankSelect}selectedRun(){return this.runs.find(t=>t.name===this.run)}showSelectedRun(){let t=this.selectedRun();t&&(this.runSelect.value=t.name,this.runStatus.textContent=t.status,this.runStatus.className=`badge status-${t.status}`,this.rank!==null&&!t.ranks.includes(this.rank)&&(this.rank=null),this.fillRankSelect(t.ranks.map(n=>({rank:n}))),this.saveSelection())}fillRankSelect(t){this.rankSelect.replaceChildren(a("option",{value:qe},"All ranks"),...t.map(n=>a("option",{value:String(n.rank)},n.host?`rank ${n.rank} · ${n.host}`:`rank ${n.rank}`))),this.rankSelect.value=this.rank===null?qe:String(this.rank)}saveSelection(){let t=this.dashboard===te[0];P({run:this.run,rank:this.rank===null?null:String(this.rank),dashboard:t?null:this.dashboard.id})}async loadDashboard(t,n,r={}){let s=this.run;if(s!==null){this.content.setAttribute("aria-busy","true");try{let o=await this.dashboard.show({run:s,rank:this.rank,signal:t,refresh:n,onProgress:i=>this.content.replaceChildren(Fs(i)),onRanks:i=>this.fillRankSelect(i),navigate:(i,l)=>this.open(yn(i),l),params:r});t.aborted||this.content.replaceChildren(o)}catch(o){kn(o)||this.content.replaceChildren(xn(`Could not load run “${s}”`,o))}finally{t.aborted||this.content.removeAttribute("aria-busy")}}}};var Bs="experimental.DataReloaded";function Gs(e){if(typeof e!="string")return null;try{let t=JSON.parse(e);return typeof t=="object"&&t!==null&&"type"in t&&"id"in t?t:null}catch{return null}}function Sn(e){if(window.parent===window)return;let t=new MessageChannel;t.port1.onmessage=n=>{let r=Gs(n.data);if(r===null||r.isReply)return;let s={type:r.type,id:r.id,payload:null,error:null,isReply:!0};t.port1.postMessage(JSON.stringify(s)),r.type===Bs&&e()};try{window.parent.postMessage("experimental.bootstrap","*",[t.port2])}catch{}}var Tn=`/* Colours follow TensorBoard: white / #303030 backgrounds, orange accent. theme.ts sets data-theme. */
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
.chart-dashed {
  stroke-width: 2;
  stroke-dasharray: 6 4;
}
.chart-mark {
  stroke: var(--grid);
  stroke-width: 1;
}
.chart-mark-swatch {
  background: var(--border);
  width: 2px;
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

/* Findings */
.findings {
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 10px;
}
.finding {
  border: 1px solid var(--border);
  border-left: 4px solid var(--border);
  border-radius: 4px;
  padding: 8px 12px;
  background: var(--surface);
}
.finding.severity-critical {
  border-left-color: var(--error-border);
}
.finding.severity-warning {
  border-left-color: var(--warning-border);
}
.finding.severity-info {
  border-left-color: var(--fg-muted);
}
.finding-head {
  display: flex;
  gap: 8px;
  align-items: baseline;
}
.severity-badge {
  font-size: 11px;
  text-transform: uppercase;
  letter-spacing: 0.04em;
  padding: 1px 6px;
  border-radius: 8px;
  border: 1px solid currentColor;
}
.severity-badge.severity-critical {
  color: var(--error-border);
}
.severity-badge.severity-warning {
  color: var(--warning-border);
}
.severity-badge.severity-info {
  color: var(--fg-muted);
}
.finding-evidence {
  margin: 6px 0;
  padding-left: 18px;
  color: var(--fg-muted);
}
.finding-fix {
  margin: 6px 0;
}
.link-button {
  font: inherit;
  color: var(--accent);
  background: none;
  border: none;
  padding: 0;
  cursor: pointer;
  text-decoration: underline;
}

/* Step-time breakdown and top-N bars */
.legend {
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  margin-bottom: 8px;
}
.legend-item {
  display: inline-flex;
  align-items: center;
  gap: 4px;
}
.legend-swatch {
  width: 12px;
  height: 12px;
  border-radius: 2px;
  display: inline-block;
}
.breakdown-rank h3 {
  margin: 10px 0 4px;
  font-size: 13px;
}
.breakdown-row,
.top-bar-row {
  display: grid;
  grid-template-columns: 90px 1fr 80px;
  gap: 8px;
  align-items: center;
  margin: 2px 0;
}
.top-bar-row {
  grid-template-columns: minmax(120px, 30ch) 1fr 80px;
}
.breakdown-bar,
.top-bar-track {
  display: flex;
  height: 14px;
  background: var(--grid);
  border-radius: 2px;
  overflow: hidden;
}
.breakdown-part {
  height: 100%;
}
.top-bar {
  height: 100%;
  background: var(--accent);
}
.top-bar-label {
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
}
.breakdown-total,
.top-bar-value {
  text-align: right;
  font-variant-numeric: tabular-nums;
}
.controls {
  display: flex;
  gap: 8px;
  margin-bottom: 8px;
}
.top-list {
  margin: 4px 0 8px;
  padding-left: 22px;
}
.top-name {
  font-family: monospace;
  overflow-wrap: anywhere;
}

/* Modules tab: tree table, icicle, per-step detail */
.tree-cell {
  display: inline-flex;
  align-items: center;
  gap: 2px;
}
.tree-toggle,
.tree-toggle-space {
  display: inline-block;
  width: 16px;
  flex: none;
}
.tree-toggle {
  font: inherit;
  color: var(--fg-muted);
  background: none;
  border: 0;
  padding: 0;
  cursor: pointer;
}
.tree-toggle:focus-visible {
  outline: 2px solid var(--accent);
}
[data-testid="module-table"] tbody tr {
  cursor: pointer;
}
.icicle {
  width: 100%;
  margin: 8px 0;
}
.icicle-svg {
  display: block;
}
.icicle-cell {
  cursor: pointer;
}
.icicle-cell rect {
  fill-opacity: 0.85;
}
.icicle-cell:hover rect {
  fill-opacity: 1;
}
.icicle-cell.selected rect {
  fill-opacity: 1;
  stroke: var(--fg);
  stroke-width: 2px;
}
.icicle-label {
  font-size: 11px;
  fill: #1a1a1a;
  pointer-events: none;
}
.module-detail {
  margin: 8px 0 12px;
}
.module-detail h3 {
  margin: 4px 0;
  font-size: 13px;
  overflow-wrap: anywhere;
}

/* Memory and GPU tabs */
.notice {
  border: 1px solid var(--border);
  border-left: 4px solid var(--accent);
  border-radius: 4px;
  padding: 8px 12px;
  margin-bottom: 16px;
  background: var(--surface);
  overflow-wrap: anywhere;
}
.memory select,
.snapshot-viewer button {
  font: inherit;
  color: var(--fg);
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 4px;
  padding: 3px 6px;
  max-width: 80ch;
}
.snapshot-viewer button {
  cursor: pointer;
}
.memory h3 {
  font-size: 13px;
  font-weight: 500;
  margin: 12px 0 4px;
}
.snapshot-body {
  margin-top: 8px;
}
.snapshot-toolbar {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px 14px;
  margin-bottom: 6px;
}
.snapshot-stage {
  position: relative;
  width: 100%;
  border: 1px solid var(--border);
}
.snapshot-canvas {
  display: block;
  touch-action: none;
  user-select: none;
  cursor: crosshair;
}
.snapshot-canvas:focus-visible {
  outline: 2px solid var(--accent);
}
.snapshot-hover {
  display: block;
  min-height: 1.45em;
  color: var(--fg-muted);
  overflow-wrap: anywhere;
}
.snapshot-details {
  border: 1px solid var(--border);
  padding: 6px 12px;
  margin-top: 4px;
}
.snapshot-details h3 {
  margin-top: 4px;
}
.snapshot-details h4 {
  font-size: 12px;
  font-weight: 500;
  margin: 8px 0 2px;
  color: var(--fg-muted);
}
.stack-frames {
  margin: 0;
  padding-left: 24px;
  font-family: monospace;
  font-size: 12px;
  overflow-wrap: anywhere;
}
`;function Wi(){document.head.append(a("style",{},Tn)),ot();let e=new Pe(document.body);Sn(()=>{e.reload()}),e.reload()}export{Wi as render};

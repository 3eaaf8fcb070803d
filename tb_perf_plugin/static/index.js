var N=class extends Error{constructor(n,r){super(r);this.code=n}code};function de(e){return typeof e=="object"&&e!==null}function on(e){return de(e)&&de(e.progress)?e.progress:null}function sn(e,t){let n=de(t)?t.error:void 0;return de(n)&&typeof n.message=="string"?new N(String(n.code??"error"),n.message):new N("http_error",`The server answered HTTP ${e}.`)}function an(e,t){return new Promise((n,r)=>{let o=setTimeout(n,e);t.addEventListener("abort",()=>{clearTimeout(o),r(t.reason)},{once:!0})})}async function ln(e,t){try{return await fetch(e,{signal:t,headers:{Accept:"application/json"}})}catch(n){throw t.aborted?n:new N("unreachable","The TensorBoard server did not answer. Is it still running?")}}async function $(e,t,n){for(;;){let r=await ln(e,t),o=await r.json().catch(()=>null),s=r.status===202?on(o):null;if(s){n?.(s),await an(500,t);continue}if(!r.ok)throw sn(r.status,o);if(o===null)throw new N("bad_response","The server sent a response that is not JSON.");return o}}function Ie(e){return $("./runs",e)}function Oe(e,t,n,r){let o=new URLSearchParams({run:e});return t!==null&&o.set("rank",String(t)),$(`./summary?${o}`,n,r)}function We(e,t){for(let[n,r]of Object.entries(t))r===void 0||r===!1||e.setAttribute(n,r===!0?"":String(r))}function a(e,t={},...n){let r=document.createElement(e);We(r,t);for(let o of n)o!=null&&o!==!1&&r.append(o);return r}var dn="http://www.w3.org/2000/svg";function M(e,t={},...n){let r=document.createElementNS(dn,e);We(r,t);for(let o of n)o!=null&&o!==!1&&r.append(o);return r}var R={top:10,right:16,bottom:38,left:68},cn=90,un=40;function Fe(e,t,n,r){let s=(t-e||Math.abs(t)||1)/Math.max(1,n),i=10**Math.floor(Math.log10(s)),l=[1,2,5,10].map(d=>d*i).find(d=>d>=s)??10*i;r&&(l=Math.max(1,Math.round(l)));let m=Math.floor(e/l)*l,c=Math.max(Math.ceil(t/l)*l,m+l),u=[];for(let d=0;m+d*l<=c+l/2;d+=1)u.push(Number((m+d*l).toPrecision(12)));return{min:m,max:c,ticks:u}}function Ue(e,t){let n=0,r=e.length;for(;n<r;){let o=n+r>>1;(e[o]??1/0)<t?n=o+1:r=o}return n}function pn(e,t){let n=null;for(let{x:r}of e){let o=Ue(r,t);for(let s of[r[o-1],r[o]])s!==void 0&&(n===null||Math.abs(s-t)<Math.abs(n-t))&&(n=s)}return n}function Be(e){let t=1/0,n=-1/0;for(let r of e)r<t&&(t=r),r>n&&(n=r);return[t,n]}function*Xe(e,t){for(let n of e)yield*n[t]}function mn(e,t,n){let{series:r,height:o}=e,s=t-R.left-R.right,i=o-R.top-R.bottom,[l,m]=Be(Xe(r,"x")),[,c]=Be(Xe(r,"y")),u=Fe(l,m,s/cn,!0),d=Fe(0,c,i/un,!1),p=x=>R.left+(x-u.min)/(u.max-u.min)*s,h=x=>R.top+(1-(x-d.min)/(d.max-d.min))*i,g=R.top+i,w=M("svg",{width:t,height:o,class:"chart-svg",role:"img"}),_=e.yTickFormat(d.ticks);for(let x of d.ticks){let D=h(x).toFixed(1);w.append(M("line",{class:"chart-grid",x1:R.left,x2:t-R.right,y1:D,y2:D}),M("text",{class:"chart-tick",x:R.left-6,y:D,"text-anchor":"end","dominant-baseline":"middle"},_(x)))}for(let x of u.ticks)w.append(M("text",{class:"chart-tick",x:p(x).toFixed(1),y:g+16,"text-anchor":"middle"},e.formatX(x)));w.append(M("line",{class:"chart-axis",x1:R.left,x2:t-R.right,y1:g,y2:g}),M("text",{class:"chart-label",x:R.left+s/2,y:o-4,"text-anchor":"middle"},e.xLabel));for(let x of r){let D=x.x.map((W,E)=>`${p(W).toFixed(1)},${h(x.y[E]??0).toFixed(1)}`);w.append(D.length===1?M("circle",{cx:p(x.x[0]??0),cy:h(x.y[0]??0),r:3,fill:x.color,"data-series":x.label}):M("polyline",{class:"chart-line",points:D.join(" "),stroke:x.color,"data-series":x.label}))}let v=M("line",{class:"chart-guide",y1:R.top,y2:g,visibility:"hidden"}),k=M("g"),z=M("rect",{x:R.left,y:R.top,width:s,height:i,class:"chart-hover"});w.append(v,k,z);let K=()=>{v.setAttribute("visibility","hidden"),k.replaceChildren(),n.hidden=!0};return z.addEventListener("pointerleave",K),z.addEventListener("pointermove",x=>{let D=w.getBoundingClientRect().left,W=u.min+(x.clientX-D-R.left)/s*(u.max-u.min),E=pn(r,W);if(E===null)return K();let ae=[];k.replaceChildren();for(let F of r){let J=Ue(F.x,E),f=F.y[J];F.x[J]!==E||f===void 0||(k.append(M("circle",{cx:p(E),cy:h(f),r:3.5,fill:F.color,class:"chart-marker"})),ae.push(a("div",{class:"tooltip-row"},a("span",{class:"swatch",style:`background:${F.color}`}),`${F.label}: ${e.formatY(f)}`)))}v.setAttribute("x1",p(E).toFixed(1)),v.setAttribute("x2",p(E).toFixed(1)),v.setAttribute("visibility","visible"),n.replaceChildren(a("div",{class:"tooltip-title"},`${e.xLabel} ${e.formatX(E)}`),...ae),n.hidden=!1;let Y=12,le=p(E)+Y+n.offsetWidth>t;n.style.left=`${le?p(E)-Y-n.offsetWidth:p(E)+Y}px`,n.style.top=`${R.top}px`}),w}function Z(e){let t=a("div",{class:"chart-tooltip",role:"tooltip","data-testid":`${e.testId}-tooltip`});t.hidden=!0;let n=a("div",{class:"chart-plot"},t),r=a("ul",{class:"chart-legend"},...e.series.map(s=>a("li",{},a("span",{class:"swatch",style:`background:${s.color}`}),s.label))),o=0;return new ResizeObserver(()=>{let s=n.clientWidth;s===0||s===o||(o=s,n.replaceChildren(mn(e,s,t),t))}).observe(n),a("figure",{class:"chart","data-testid":e.testId},n,r)}var hn=new Intl.NumberFormat("en-US");function ce(e){let t=Math.abs(e),n=t>=100?0:t>=10?1:2;return new Intl.NumberFormat("en-US",{minimumFractionDigits:n,maximumFractionDigits:n}).format(e)}function b(e){if(e==null||!Number.isFinite(e))return"—";let t=Math.abs(e);return t>=1e9?`${ce(e/1e9)} s`:t>=1e6?`${ce(e/1e6)} ms`:t>=1e3?`${ce(e/1e3)} µs`:`${Math.round(e)} ns`}var ze=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]];function ue(e){let t=Math.max(0,...e.map(Math.abs)),[n,r]=ze.find(([i])=>t>=i)??[1,"ns"],o=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/n:1,s=Math.min(3,Math.max(0,-Math.floor(Math.log10(o))));return i=>`${(i/n).toFixed(s)} ${r}`}function y(e){return e==null?"—":hn.format(e)}function re(e){return e==null||!Number.isFinite(e)?"—":e>0&&e<.05?"<0.1 %":`${e.toFixed(1)} %`}function G(e){let t=["B","KB","MB","GB","TB"],n=e,r=0;for(;n>=1e3&&r<t.length-1;)n/=1e3,r+=1;return r===0?`${e} B`:`${ce(n)} ${t[r]}`}function oe(e){let[t,n]=ze.find(([o])=>Math.abs(e)>=o)??[1,"ns"],r=Math.round(Math.log10(t));return`${(e/t).toFixed(r)} ${n}`}function C(){return new URLSearchParams(location.hash.slice(1))}function L(e){let t=C();for(let[r,o]of Object.entries(e))o===null?t.delete(r):t.set(r,o);let n=new URL(location.href);n.hash=t.toString(),history.replaceState(history.state,"",n.href)}var fn={asc:"ascending",desc:"descending"},bn={asc:" ▲",desc:" ▼"},gn={asc:"desc",desc:"asc"};function vn(e,t){return typeof e=="number"&&typeof t=="number"?e-t:String(e).localeCompare(String(t))}function wn(e,t,n){let r=n==="asc"?1:-1;return[...e].sort((o,s)=>{let i=t.value(o),l=t.value(s);return i===null||l===null?i===l?0:i===null?1:-1:r*vn(i,l)})}function yn(e){return e.numeric?"desc":"asc"}function B(e){let{columns:t,testId:n}=e,r=e.sort,o=a("table",{class:"data-table","data-testid":n}),s=a("tr"),i=a("tbody");o.append(a("thead",{},s),i);let l=()=>{s.replaceChildren(...t.map(c=>{let u=r?.key===c.key?r.direction:void 0,d=a("th",{class:c.numeric?"numeric":void 0,title:c.title,"aria-sort":u&&fn[u],"data-column":c.key});if(!r)return d.append(c.label),d;let p=u?bn[u]:"",h=a("button",{type:"button",class:"sort-button"},c.label+p);return h.addEventListener("click",()=>{let g=u===void 0?yn(c):gn[u];r={key:c.key,direction:g},e.onSortChange?.(r),l(),m()}),d.append(h),d}))},m=()=>{let c=r&&t.find(d=>d.key===r?.key),u=r&&c?wn(e.rows,c,r.direction):e.rows;i.replaceChildren(...u.map(d=>a("tr",{"data-testid":e.rowTestId,"data-name":e.rowName(d),class:e.rowClass?.(d)},...t.map(p=>{let h=p.value(d);return a("td",{class:p.numeric?"numeric":void 0,"data-column":p.key,"data-value":h===null?void 0:String(h)},p.render?p.render(d):p.format?p.format(d):String(h??"—"))}))))};return l(),m(),o}function xe(e){document.documentElement.dataset.theme=e?"dark":"light"}function xn(){if(window.parent===window)return null;try{return window.parent.document.body}catch{return null}}function Ke(){let e=xn();if(e){let n=()=>xe(e.classList.contains("dark-mode"));n(),new MutationObserver(n).observe(e,{attributes:!0,attributeFilter:["class"]});return}let t=window.matchMedia("(prefers-color-scheme: dark)");xe(t.matches),t.addEventListener("change",n=>xe(n.matches))}var Ge=["#4e79a7","#f28e2b","#e15759","#76b7b2","#59a14f","#edc948","#b07aa1","#ff9da7","#9c755f","#bab0ac"];function H(e){return Ge[Math.max(0,e)%Ge.length]??"#888"}function Q(e,t={}){let n=new URLSearchParams({run:e});for(let[r,o]of Object.entries(t))o!==null&&n.set(r,String(o));return n.toString()}function Ve(e,t,n){return $(`./findings?${Q(e)}`,t,n)}function qe(e,t,n,r){return $(`./breakdown?${Q(e,{rank:t})}`,n,r)}function pe(e,t,n,r,o,s){let i=`./operators?${Q(e,{rank:t,group_by:n,limit:r})}`;return $(i,o,s)}function me(e,t,n,r,o){return $(`./kernels?${Q(e,{rank:t,limit:n})}`,r,o)}function je(e,t,n,r){return $(`./modules?${Q(e,{rank:t})}`,n,r)}function Ye(e,t,n,r,o){return $(`./module_steps?${Q(e,{rank:t,path:n,phase:r})}`,o)}var kn=1e3,Je=(e,t,n="")=>e===null?"—":`${e.toFixed(t)}${n}`,Ze=[{key:"name",label:"kernel",numeric:!1,value:e=>e.name},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>y(e.calls)},{key:"total_ns",label:"total",numeric:!0,value:e=>e.total_ns,format:e=>b(e.total_ns)},{key:"mean_ns",label:"mean",numeric:!0,value:e=>e.mean_ns,format:e=>b(e.mean_ns)},{key:"max_ns",label:"max",numeric:!0,value:e=>e.max_ns,format:e=>b(e.max_ns)},{key:"pct_of_kernel_time",label:"% of GPU time",numeric:!0,value:e=>e.pct_of_kernel_time,format:e=>`${e.pct_of_kernel_time.toFixed(1)} %`},{key:"tensor_cores",label:"Tensor Cores",title:"Guessed from the kernel's name (docs/ANALYSIS.md)",numeric:!1,value:e=>e.tensor_cores?"yes":"no"},{key:"mean_est_occupancy_pct",label:"est. occupancy",numeric:!0,value:e=>e.mean_est_occupancy_pct,format:e=>Je(e.mean_est_occupancy_pct,1," %")},{key:"est_sm_efficiency",label:"est. SM efficiency",numeric:!0,value:e=>e.est_sm_efficiency,format:e=>Je(e.est_sm_efficiency===null?null:e.est_sm_efficiency*100,1," %")}];function Sn(){let e=C(),t=e.get("ksort"),n=e.get("kdir");return Ze.some(r=>r.key===t)&&(n==="asc"||n==="desc")?{key:t,direction:n}:{key:"total_ns",direction:"desc"}}function Tn(e){if(e.length===0)return a("p",{class:"muted"},"No GPU kernels in this run's traces.");let t=e.flatMap((n,r)=>{let o=BigInt(n.start_ns[0]??"0"),s=n.start_ns.map(l=>Number(BigInt(l)-o)),i=`rank ${n.rank} GPU ${n.device}`;return[{label:`${i} utilization`,color:H(2*r),x:s,y:n.utilization.map(l=>l*100)},{label:`${i} est. SM efficiency`,color:H(2*r+1),x:s,y:n.est_sm_efficiency.map(l=>l*100)}]});return Z({series:t,height:220,xLabel:"time from the trace's start",formatX:b,formatY:n=>`${n.toFixed(1)} %`,yTickFormat:()=>n=>`${n} %`,testId:"gpu-utilization-chart"})}var Qe={id:"kernels",label:"Kernels",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let o=await me(e,t,kn,n,r),s=o.devices.map(l=>`rank ${l.rank} GPU ${l.device}: ${l.tensor_core_pct.toFixed(1)} % of kernel time on Tensor Cores (by name)`),i=o.rows.length===0?a("p",{class:"muted"},"No GPU kernels in this run's traces."):B({columns:Ze,rows:o.rows,testId:"kernel-table",rowTestId:"kernel-row",rowName:l=>l.name,sort:Sn(),onSortChange:l=>L({ksort:l.key,kdir:l.direction})});return a("div",{class:"overview","data-testid":"kernels"},a("section",{class:"panel"},a("h2",{},"GPU utilization and est. SM efficiency"),Tn(o.devices),...s.map(l=>a("p",{class:"muted"},l))),a("section",{class:"panel"},a("h2",{},"Kernels"),a("div",{class:"table-scroll"},i)))}};function et(e){let t=new Set(e.map(o=>o.path)),n=[],r=new Map;for(let o of e){if(o.parent===null||!t.has(o.parent)){n.push(o);continue}let s=r.get(o.parent);s?s.push(o):r.set(o.parent,[o])}return{roots:n,children:r}}function tt(e,t){let n=new Set;return e.filter(r=>r.parent!==null&&(t.has(r.parent)||n.has(r.parent))?(n.add(r.path),!1):!0)}function nt(e,t,n,r=.5){let o=[],s=new Map,i=c=>{let u=s.get(c.path);return u===void 0&&(u=Math.max(0,t(c)),u===0&&(u=l(e.children.get(c.path)??[])),s.set(c.path,u)),u},l=c=>c.reduce((u,d)=>u+i(d),0),m=(c,u,d,p,h)=>{let g=u;for(let w of c){let _=p>0?d*i(w)/p:0;if(_>=r){o.push({row:w,x:g,width:_,level:h});let v=e.children.get(w.path)??[];m(v,g,_,Math.max(i(w),l(v)),h+1)}g+=_}};return m(e.roots,0,n,l(e.roots),0),o}var ke=20,_n=6.5,Mn=24;function Rn(e,t){let n=Math.floor((t-6)/_n);return t<Mn||n<2?"":e.length<=n?e:`${e.slice(0,n-1)}…`}function En(e,t){let n=nt(e.tree,e.value,t),r=n.reduce((s,i)=>Math.max(s,i.level+1),0),o=M("svg",{width:t,height:r*ke,class:"icicle-svg",role:"img","aria-label":"Module time as an icicle chart"});for(let{row:s,x:i,width:l,level:m}of n){let c=m*ke,u=M("g",{class:s.path===e.selected?"icicle-cell selected":"icicle-cell","data-testid":"icicle-cell","data-path":s.path},M("title",{},e.tooltip(s)),M("rect",{x:i.toFixed(2),y:c,width:Math.max(l-1,.5).toFixed(2),height:ke-1,fill:e.color(s)})),d=Rn(e.label(s),l);d&&u.append(M("text",{class:"icicle-label",x:(i+3).toFixed(2),y:c+14},d)),u.addEventListener("click",()=>e.onSelect(s)),o.append(u)}return o}function rt(e){let t=a("div",{class:"icicle","data-testid":"module-icicle"}),n=0;return new ResizeObserver(()=>{let r=t.clientWidth;r===0||r===n||(n=r,t.replaceChildren(En(e,r)))}).observe(t),t}var An=200,Ln=2,Pn=16,at={forward:"forward",backward:"backward",total:"forward + backward"};function Se(e){return e.path===""?`(model) ${e.type}`:e.name}function Cn(e){return e instanceof DOMException&&e.name==="AbortError"}function he(e,t){return e[t.phase]}function ot(e,t){let n=he(e,t);return n?(t.time==="device"?n.gpu_total_ns:n.total_ns)??0:0}function X(e,t,n,r,o=b){let s=i=>he(i,r)?.[e]??null;return{key:e,label:t,title:n,numeric:!0,value:s,format:i=>o(s(i))}}function $n(e,t,n,r){let o={key:"name",label:"module",numeric:!1,value:c=>c.path,render:c=>{let u=!t.has(c.path),d=n(c)?a("button",{type:"button",class:"tree-toggle","data-testid":"module-toggle","aria-expanded":String(u),"aria-label":`${u?"Collapse":"Expand"} ${Se(c)}`},u?"▾":"▸"):a("span",{class:"tree-toggle-space"});return d.addEventListener("click",p=>{p.stopPropagation(),r(c)}),a("span",{class:"tree-cell",style:`padding-left:${c.depth*Pn}px`,title:c.path},d,Se(c))}},s={key:"type",label:"type",numeric:!1,value:c=>c.type},i=X("calls","calls","Calls in this phase",e,y),l={key:"params",label:"params",title:"Parameters in its subtree (shared ones once)",numeric:!0,value:c=>c.params,format:c=>y(c.params)},m=X("pct_of_step","% of step","Its time per covered step over the mean step time (docs/ANALYSIS.md)",e,re);return e.time==="device"?[o,s,i,X("gpu_total_ns","device total","CUDA-event time of its calls",e),X("gpu_mean_ns","device mean","Per call, in steps with device times",e),X("total_ns","host total","Host time of its calls",e),l]:[o,s,i,X("self_ns","self","Total minus the profiled modules called inside it",e),X("total_ns","total","Time of its calls, nested modules included",e),X("mean_ns","mean","Per call",e),X("p95_ns","p95","Per call (from the recorded samples)",e),m,l]}function Nn(e){let t=e.steps.map(o=>{let s=o.step_time_ns===null?"":`, mean step ${b(o.step_time_ns)}`;return`rank ${o.rank}: ${y(o.steps)} steps${s}`}).join("; "),r=[(e.source==="collector"?"ModuleProfiler records: attribute paths, forward and backward calls.":"From torch.profiler traces: forward calls only (backward runs outside module calls).")+(t?` Covered steps — ${t}.`:"")];if(e.class_names&&r.push(a("strong",{"data-testid":"module-class-names"}," Names are class names with a per-class counter (Linear_3), not attribute paths; the tree comes from how calls nest. Record with collectors.ModuleProfiler for paths.")),e.total_rows>e.rows.length){let o=`${y(e.rows.length)} of ${y(e.total_rows)}`;r.push(` Showing the first ${o} modules.`)}return a("p",{class:"muted","data-testid":"module-note"},...r)}function Dn(e){let t=[];return e.backward||t.push("backward not profiled"),e.every_n_steps>1&&t.push(`profiled one step in ${e.every_n_steps}`),e.aggregate_steps>1&&t.push(`records aggregate ${e.aggregate_steps} steps`),e.gpu?.startsWith("off")&&t.push(`no device times: GPU timing ${e.gpu}`),e.max_depth!==null&&t.push(`modules to depth ${e.max_depth}`),e.include.length>0&&t.push(`only ${e.include.join(", ")}`),e.exclude.length>0&&t.push(`excluding ${e.exclude.join(", ")}`),t}function Hn(e){return e.charAt(0).toUpperCase()+e.slice(1)+(e.endsWith(".")?"":".")}function In(e){let t=[];for(let n of e){let r=Dn(n);if(r.length===0&&n.compiled===null)continue;let o=n.ranks.length===1?"rank":"ranks",s=e.length>1?` (${o} ${n.ranks.join(", ")})`:"",i=r.length>0?`: ${r.join(" · ")}`:"";t.push(`${t.length>0?" ":""}ModuleProfiler${s}${i}.`),n.compiled!==null&&t.push(a("strong",{"data-testid":"module-compiled"},` ${Hn(n.compiled)}`))}return t.length===0?null:a("p",{class:"muted","data-testid":"module-settings"},...t)}function On(e){return e.length===0?null:a("div",{class:"warnings",role:"status","data-testid":"module-warnings"},a("strong",{},"Some module records could not be read"),a("ul",{},...e.map(t=>a("li",{},t))))}function st(e,t,n,r){let o=a("select",{"aria-label":e,"data-testid":t},...n.map(([s,i])=>a("option",{value:s},i)));return o.value=r,o}function Wn(e){return e?`inputs ${JSON.stringify(e.inputs)} → output ${JSON.stringify(e.output)}`:null}function Fn(e,t,n){let r=[];for(let l of e.series){let m=H(n.indexOf(l.rank)),c=t==="device"&&l.device_ns?l.device_ns:l.host_ns,u=l.steps.flatMap((d,p)=>{let h=c[p];return h==null?[]:[[d,h]]});u.length!==0&&r.push({label:`rank ${l.rank}${t==="device"&&l.device_ns?" (device)":""}`,color:m,x:u.map(([d])=>d),y:u.map(([,d])=>d)})}if(r.length===0)return a("p",{class:"muted","data-testid":"module-step-chart-empty"},"No per-step times: no step covers this module's calls.");let o=Math.max(...e.series.map(l=>l.bucket)),s=Z({series:r,height:220,xLabel:"step",formatX:l=>String(l),formatY:b,yTickFormat:ue,testId:"module-step-chart"});if(o===1)return s;let i=`Each point is the mean of ${o} consecutive steps.`;return a("div",{},s,a("p",{class:"muted"},i))}function it(e,t){let n=he(e,t);if(!n)return`Not called in ${at[t.phase]}.`;let r=[`${y(n.calls)} calls`,`total ${b(n.total_ns)}`,`self ${b(n.self_ns)}`,`mean ${b(n.mean_ns)}`];return n.median_ns!==null&&r.push(`median ${b(n.median_ns)}`),n.std_ns!==null&&r.push(`std ${b(n.std_ns)}`),n.p95_ns!==null&&r.push(`p95 ${b(n.p95_ns)}`),n.gpu_total_ns!==null&&r.push(`device ${b(n.gpu_total_ns)}`),e.params!==null&&r.push(`${y(e.params)} params`),r.join(" · ")}function Bn(){return a("p",{class:"muted"},"No module calls in this run. Wrap the model in collectors.ModuleProfiler(model, timer) for forward and backward time per attribute path; or record traces with Lightning's PyTorchProfiler, or with profile_steps(..., with_stack=True) (torch.profiler's with_stack=True) in eager mode.")}var lt={id:"modules",label:"Modules",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let o=await je(e,t,n,r),s=a("section",{class:"panel"},a("h2",{},"Modules")),i=In(o.settings);i&&s.append(i);let l=a("div",{class:"overview","data-testid":"modules"},s),m=On(o.warnings);if(o.rows.length===0)return s.append(Bn()),m&&s.append(m),l;if(!o.rows.some(f=>f.forward||f.backward)){let f=t===null?"Modules are declared, but no calls are recorded yet.":`No module calls recorded on rank ${t}; select another rank.`;return s.append(a("p",{class:"muted","data-testid":"module-note"},f)),l}let c=C(),u=o.phases,d=c.get("modphase"),p={phase:d&&u.includes(d)?d:u.includes("total")?"total":"forward",time:o.device&&c.get("modtime")==="device"?"device":"host"},h=et(o.rows),g=f=>(h.children.get(f.path)?.length??0)>0,w=new Set(o.rows.length<=An?[]:o.rows.filter(f=>f.depth>=Ln-1&&g(f)).map(f=>f.path)),_=o.steps.map(f=>f.rank),v=[...new Set(o.rows.map(f=>f.type))],k=o.rows.find(f=>f.path===c.get("modpath"))??null,z=st("Phase","module-phase",u.map(f=>[f,at[f]]),p.phase),K=st("Time","module-time",[["host","host time"],["device","device time"]],p.time);z.hidden=u.length<2,K.hidden=!o.device;let x=a("div"),D=a("div",{class:"table-scroll"}),W=a("div",{class:"module-detail","data-testid":"module-detail"}),E=new AbortController;n.addEventListener("abort",()=>E.abort());let ae=()=>{let f=k?.path??null,S="[data-testid=icicle-cell], [data-testid=module-row]";for(let A of l.querySelectorAll(S)){let I=A.getAttribute("data-path")??A.getAttribute("data-name");A.classList.toggle("selected",I===f)}},Y=async()=>{if(E.abort(),E=new AbortController,k===null){W.replaceChildren(a("p",{class:"muted"},"Click a module (a row or a cell) to see its time per step."));return}let f=k,S=a("h3",{},`${f.path===""?"(model)":f.path} · ${f.type}`);W.replaceChildren(S,a("p",{},it(f,p)),a("p",{class:"muted"},"Loading steps…"));try{let A=await Ye(e,t,f.path,p.phase,E.signal),I=Wn(A.shapes);W.replaceChildren(S,a("p",{},it(f,p)),...I?[a("p",{class:"muted"},I)]:[],Fn(A,p.time,_))}catch(A){if(!Cn(A)){let I=`Could not load its steps: ${String(A)}`;W.replaceChildren(S,a("p",{role:"alert"},I))}}},le=f=>{k=f,L({modpath:f.path}),ae(),Y()},F=()=>{let f=B({columns:$n(p,w,g,S=>{w.has(S.path)?w.delete(S.path):w.add(S.path),F()}).filter(S=>!S.numeric||o.rows.some(A=>S.value(A)!==null)),rows:tt(o.rows,w),testId:"module-table",rowTestId:"module-row",rowName:S=>S.path,rowClass:S=>S.path===k?.path?"selected":void 0});f.addEventListener("click",S=>{let A=S.target instanceof Element?S.target.closest("tr[data-name]"):null,I=A&&o.rows.find(rn=>rn.path===A.getAttribute("data-name"));I&&le(I)}),D.replaceChildren(f)},J=()=>{x.replaceChildren(rt({tree:h,value:f=>ot(f,p),label:Se,tooltip:f=>{let S=he(f,p),A=S?.pct_of_step==null?"":` · ${re(S.pct_of_step)} of step`;return`${f.path===""?"(model)":f.path} (${f.type}): ${b(ot(f,p))}${A}`},color:f=>H(v.indexOf(f.type)),selected:k?.path??null,onSelect:le})),F(),Y()};return z.addEventListener("change",()=>{p.phase=z.value,L({modphase:p.phase}),J()}),K.addEventListener("change",()=>{p.time=K.value==="device"?"device":"host",L({modtime:p.time==="device"?"device":null}),J()}),J(),s.append(Nn(o),...m?[m]:[],a("div",{class:"controls"},z,K),x,W,D),l}};var Xn=1e3,Un=10;function fe(e,t,n){return{key:e,label:t,title:n,numeric:!0,value:r=>r[e],format:r=>b(r[e])}}var zn=[{key:"name",label:"operator",numeric:!1,value:e=>e.name},{key:"input_dims",label:"input shapes",numeric:!1,value:e=>e.input_dims},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>y(e.calls)},fe("device_self_ns","device self","Kernels, copies and fills it launched itself"),fe("device_total_ns","device total","Device self of the op and everything nested in it"),fe("host_self_ns","host self","Host time minus its direct children (as key_averages)"),fe("host_total_ns","host total","Host time of its calls")];function Gn(e,t){let n=C(),r=n.get("opsort"),o=n.get("opdir");return e.some(s=>s.key===r)&&(o==="asc"||o==="desc")?{key:r,direction:o}:{key:t?"device_self_ns":"host_self_ns",direction:"desc"}}function Kn(e,t){let n=e.some(r=>r.device_total_ns>0);return zn.filter(r=>(t||r.key!=="input_dims")&&(n||!r.key.startsWith("device_")))}function Vn(e){let t=e.some(s=>s.device_self_ns>0),n=s=>t?s.device_self_ns:s.host_self_ns,r=[...e].sort((s,i)=>n(i)-n(s)).slice(0,Un),o=Math.max(1,...r.map(n));return a("div",{class:"top-bars","data-testid":"operator-bars"},a("p",{class:"muted"},`Top ${r.length} by ${t?"device":"host"} self time`),...r.map(s=>a("div",{class:"top-bar-row"},a("span",{class:"top-bar-label",title:s.name},s.name),a("span",{class:"top-bar-track"},a("span",{class:"top-bar",style:`width: ${(n(s)/o*100).toFixed(2)}%`})),a("span",{class:"top-bar-value"},b(n(s))))))}var dt={id:"operators",label:"Operators",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,params:o}){let s=a("input",{type:"search",class:"search-input",placeholder:"Filter operators","aria-label":"Filter operators","data-testid":"operator-filter",value:String(o.q??C().get("opq")??"")}),i=a("select",{"aria-label":"Group by","data-testid":"operator-group"},a("option",{value:"name"},"by name"),a("option",{value:"input_dims"},"by name and input shapes"));i.value=C().get("opgroup")==="input_dims"?"input_dims":"name";let l=a("p",{class:"muted","data-testid":"operator-caption"}),m=a("div"),c=a("div",{class:"table-scroll"}),u=[],d=()=>{let g=s.value.trim().toLowerCase(),w=u.filter(k=>g===""||k.name.toLowerCase().includes(g)),_=Kn(u,i.value==="input_dims"),v=_.some(k=>k.key==="device_self_ns");m.replaceChildren(Vn(w)),c.replaceChildren(B({columns:_,rows:w,testId:"operator-table",rowTestId:"operator-row",rowName:k=>k.name,sort:Gn(_,v),onSortChange:k=>L({opsort:k.key,opdir:k.direction})})),L({opq:g===""?null:s.value})},p=new AbortController,h=async g=>{p.abort(),p=new AbortController;let w=i.value==="input_dims"?"input_dims":"name",_=g?n:p.signal,v=await pe(e,t,w,Xn,_,r);u=v.rows,l.textContent=v.total_rows>v.rows.length?`Showing ${v.rows.length} of ${y(v.total_rows)} operators.`:`${y(v.total_rows)} operators.`,d()};return s.addEventListener("input",d),i.addEventListener("change",()=>{L({opgroup:i.value==="input_dims"?"input_dims":null}),h(!1).catch(g=>{g instanceof DOMException&&g.name==="AbortError"||(l.textContent=`Could not load operators: ${String(g)}`)})}),await h(!0),a("div",{class:"overview","data-testid":"operators"},a("section",{class:"panel"},a("h2",{},"Operators"),a("div",{class:"controls"},s,i),l,m,c))}};var Te=40;function qn(e,t){let n=t.map((o,s)=>{let i=e.ns[o]??0,l=e.duration_ns>0?i/e.duration_ns:0;return a("span",{class:`breakdown-part category-${o}`,style:`width: ${(l*100).toFixed(3)}%; background: ${o==="idle"?"var(--grid)":H(s)}`,title:`${o}: ${b(i)} (${(l*100).toFixed(1)} %)`})}),r=e.step===null?"trace":`step ${e.step}`;return a("div",{class:"breakdown-row","data-testid":"breakdown-bar"},a("span",{class:"breakdown-label"},r),a("span",{class:"breakdown-bar","aria-label":r},...n),a("span",{class:"breakdown-total muted"},b(e.duration_ns)))}function ct(e){if(e.ranks.length===0)return a("p",{class:"muted"},"No traces in this run: record some steps with profile_steps to see what each step is made of.");let t=a("div",{class:"legend"},...e.categories.map((r,o)=>a("span",{class:"legend-item"},a("span",{class:"legend-swatch",style:`background: ${r==="idle"?"var(--grid)":H(o)}`}),r))),n=e.ranks.map(({rank:r,steps:o})=>a("div",{class:"breakdown-rank"},a("h3",{},`rank ${r}`),...o.slice(0,Te).map(s=>qn(s,e.categories)),o.length>Te?a("p",{class:"muted"},`First ${Te} of ${o.length} steps.`):null));return a("div",{class:"breakdown","data-testid":"breakdown"},t,...n)}var jn={overview:"Overview",timeline:"Timeline",operators:"Operators",kernels:"Kernels"};function Yn(e,t){return typeof e!="number"?String(e):t==="ns"?b(e):t==="fraction"?`${(e*100).toFixed(1)} %`:t==="x"?`${e.toFixed(2)}×`:t==="%"?`${e.toFixed(1)} %`:String(e)}function Jn(e,t){let n=e.view.tab,r=a("button",{type:"button",class:"link-button","data-testid":"finding-link","data-tab":n},`Open in ${jn[n]??n}`);r.addEventListener("click",()=>t(n,e.view.params));let o=Object.entries(e.evidence).map(([s,i])=>a("li",{},`${s.replaceAll("_"," ")}: ${Yn(i.value,i.unit)}`));return a("li",{class:`finding severity-${e.severity}`,"data-testid":"finding","data-kind":e.kind,"data-severity":e.severity},a("div",{class:"finding-head"},a("span",{class:`severity-badge severity-${e.severity}`},e.severity),a("strong",{class:"finding-title"},e.title)),a("ul",{class:"finding-evidence"},...o),a("p",{class:"finding-fix"},e.recommendation),r)}function ut(e,t){let n=e.length===0?a("p",{class:"muted","data-testid":"no-findings"},"No findings: nothing in this run crossed a threshold."):a("ol",{class:"findings","data-testid":"findings"},...e.map(r=>Jn(r,t)));return a("section",{class:"panel"},a("h2",{},"Findings"),n)}var pt={key:"total_ns",direction:"desc"},O=(e,t,n,r)=>({key:e,label:t,numeric:!0,value:n,format:o=>b(n(o)),...r===void 0?{}:{title:r}}),Zn=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"host",label:"host",numeric:!1,value:e=>e.host},{key:"pid",label:"pid",numeric:!0,value:e=>e.pid,format:e=>String(e.pid)},{key:"status",label:"status",numeric:!1,value:e=>e.status},{key:"steps",label:"steps",numeric:!0,value:e=>e.steps,format:e=>y(e.steps)},O("mean","mean step",e=>e.step_time_ns?.mean??null),O("p50","p50 step",e=>e.step_time_ns?.p50??null),O("p95","p95 step",e=>e.step_time_ns?.p95??null),O("max","max step",e=>e.step_time_ns?.max??null)];function Qn(e){let t=[{key:"name",label:"name",numeric:!1,value:n=>n.name},{key:"calls",label:"calls",numeric:!0,value:n=>n.calls,format:n=>y(n.calls)},O("total_ns","total",n=>n.total_ns,"Sum of the span's durations"),O("self_ns","self",n=>n.self_ns,"Total minus the time of direct child spans"),O("mean_ns","mean",n=>n.mean_ns),O("p50_ns","p50",n=>n.p50_ns),O("p95_ns","p95",n=>n.p95_ns),{key:"pct_of_step",label:"% of step",title:"Total as a share of all step time of the selected ranks (can exceed 100 % for spans outside steps)",numeric:!0,value:n=>n.pct_of_step,format:n=>re(n.pct_of_step)}];return e&&t.push(O("gpu_total_ns","GPU total",r=>r.gpu_total_ns,"Sum of the spans' CUDA-event durations")),t}function er(e){let t=C(),n=t.get("sort"),r=t.get("dir");return!e.some(o=>o.key===n)||r!=="asc"&&r!=="desc"?pt:{key:n??pt.key,direction:r}}function se(e,...t){return a("section",{class:"panel"},a("h2",{},e),...t)}function tr(e){return e.length===0?null:a("section",{class:"warnings","data-testid":"warnings",role:"status"},a("h2",{},e.length===1?"1 warning while reading this run":`${e.length} warnings while reading this run`),a("ul",{},...e.map(t=>a("li",{},t))))}function nr(e){let t=e.step_series.filter(i=>i.steps.length>0);if(t.length===0)return a("p",{class:"muted"},"No completed steps yet.");let n=e.ranks.map(i=>i.rank),r=Math.max(...t.map(i=>i.bucket)),o=Z({series:t.map(i=>({label:`rank ${i.rank}`,color:H(n.indexOf(i.rank)),x:i.steps,y:i.time_ns})),height:260,xLabel:"step",formatX:i=>String(i),formatY:b,yTickFormat:ue,testId:"step-chart"}),s=r>1?a("p",{class:"muted"},`Each point is the mean of ${r} consecutive steps.`):null;return a("div",{},o,s)}function rr(e){if(e.spans.length===0)return a("p",{class:"muted"},"No timer spans in this run. Wrap code in MyTimer spans to see where step time goes.");let t=Qn(e.spans.some(o=>o.gpu_total_ns!==null)),n=B({columns:t,rows:e.spans,testId:"span-table",rowTestId:"span-row",rowName:o=>o.name,sort:er(t),onSortChange:o=>L({sort:o.key,dir:o.direction})}),r=e.spans_truncated?a("p",{class:"muted"},`Showing the ${e.spans.length} spans with the largest total time.`):null;return a("div",{class:"table-scroll"},n,r)}function or(e){let{count:t,first:n,last:r}=e.steps,o=e.rank===null?`all ${e.ranks.length} ranks`:`rank ${e.rank}`;return t===0||n===null||r===null?`No completed steps (${o}).`:`${y(t)} steps, ${n}–${r} (${o}).`}var mt=5;function sr(e,t,n){if(e.rows.length===0&&t.rows.length===0)return null;let r=(i,l)=>{let m=a("button",{type:"button",class:"link-button"},l);return m.addEventListener("click",()=>n(i,{})),m},o=e.rows.some(i=>i.device_self_ns>0),s=(i,l)=>a("ol",{class:"top-list","data-testid":l},...i.map(([m,c])=>a("li",{},a("span",{class:"top-name"},m),` ${c}`)));return se("Top operators and kernels",e.rows.length?a("div",{},a("h3",{},`Operators by ${o?"device":"host"} self time`),s(e.rows.map(i=>[i.name,b(o?i.device_self_ns:i.host_self_ns)]),"top-operators"),r("operators","All operators")):null,t.rows.length?a("div",{},a("h3",{},"Kernels by total time"),s(t.rows.map(i=>[i.name,b(i.total_ns)]),"top-kernels"),r("kernels","All kernels")):null)}function ir(e,t,n,r,o){let s=B({columns:Zn,rows:e.ranks,testId:"rank-table",rowTestId:"rank-row",rowName:l=>String(l.rank),rowClass:l=>l.rank===e.rank?"selected":void 0}),i=t.filter(l=>e.rank===null||l.ranks.length===0||l.ranks.includes(e.rank));return a("div",{class:"overview","data-testid":"overview"},tr(e.warnings),ut(i,o),se("Step-time breakdown",ct(n)),se("Ranks",a("p",{class:"muted"},or(e)),a("div",{class:"table-scroll"},s)),se("Step time per rank",nr(e)),se("Spans",rr(e)),r)}var ht={id:"overview",label:"Overview",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,onRanks:o,navigate:s}){let[i,l,m,c,u]=await Promise.all([Oe(e,t,n,r),Ve(e,n,r),qe(e,t,n,r),pe(e,t,"name",mt,n,r),me(e,t,mt,n,r)]);o(i.ranks);let d=sr(c,u,s);return ir(i,l.findings,m,d,s)}};var Me={window:null,selected:null,enabledRanks:null,search:""};function _e(e){if(e===null||e.trim()==="")return null;let t=Number(e);return Number.isSafeInteger(t)?t:null}function ft(e,t){if(e===null)return null;if(e==="")return[];let n=e.split(t).map(_e);return n.every(r=>r!==null)?n:null}function bt(){let e=C(),t=_e(e.get("start")),n=_e(e.get("end")),r=ft(e.get("sel"),":"),[o,s]=r?.length===2?r:[];return{window:t!==null&&n!==null&&n>t?{start:t,end:n}:null,selected:o!==void 0&&s!==void 0?{rank:o,id:s}:null,enabledRanks:ft(e.get("ranks"),","),search:e.get("q")??""}}function V(e){let t={};e.window!==void 0&&(t.start=e.window&&String(Math.round(e.window.start)),t.end=e.window&&String(Math.round(e.window.end))),e.selected!==void 0&&(t.sel=e.selected&&`${e.selected.rank}:${e.selected.id}`),e.enabledRanks!==void 0&&(t.ranks=e.enabledRanks&&e.enabledRanks.join(",")),e.search!==void 0&&(t.q=e.search===""?null:e.search),L(t)}var ar={clock_sync:"The collectors measured this rank's clock offset to rank 0.",collectives:"Offset fitted so that the same collectives end together on every rank.",steps:"Offset chosen so that this rank's step boundaries line up with the other ranks'.",reference:"Rank 0's own clock: the reference the other ranks are aligned to.",none:"Not aligned: no clock sync, collectives or steps to align with."};function gt(e){let{method:t,uncertainty_ns:n}=e;return t==="reference"||t==="none"?t:`${t} ±${b(n)}`}function vt(e){let t=[ar[e.method]??e.method];if(e.method!=="reference"&&e.method!=="none"){if(t.push(`Offset added to this rank's clock: ${b(e.offset_ns)}.`,`Remaining error at most ±${b(e.uncertainty_ns)}.`),e.method==="collectives"||e.method==="steps"){let n=e.outliers?`, ${e.outliers} set aside as outliers`:"";t.push(`Fitted on ${e.pairs} matched pairs${n}.`)}e.drift_ns_per_s!==null&&t.push(`Clock drift corrected: ${b(e.drift_ns_per_s)} per s.`)}return t}var lr=1e3;function wt(e,t){return t!==null&&e.set("ranks",t.join(",")),e}function yt(e,t,n){return $(`./timeline/meta?${new URLSearchParams({run:e})}`,t,n)}function xt(e,t,n,r){let o=new URLSearchParams({run:e,start:String(t.start),end:String(t.end),width_px:String(t.widthPx)});return $(`./timeline/tiles?${wt(o,t.ranks)}`,n,r)}function Re(e,t,n){let r=new URLSearchParams({run:e,rank:String(t.rank),id:String(t.id)});return $(`./timeline/event?${r}`,n)}function kt(e,t,n,r){let o=new URLSearchParams({run:e,q:t,limit:String(lr)});return $(`./timeline/search?${wt(o,n)}`,r)}function St(e){let t=2166136261;for(let n=0;n<e.length;n+=1)t^=e.charCodeAt(n),t=Math.imul(t,16777619);return(t>>>0)%40}function Tt(e){return Array.from({length:40},(t,n)=>{let r=Math.round(n*137.508%360),o=(e?36:72)+n%3*4;return`hsl(${r} ${e?40:55}% ${o}%)`})}function Ee(){let e=getComputedStyle(document.documentElement),t=r=>e.getPropertyValue(r).trim(),n=document.documentElement.dataset.theme==="dark";return{dark:n,background:t("--bg"),surface:t("--surface"),text:t("--fg"),mutedText:t("--fg-muted"),border:t("--border"),grid:t("--grid"),accent:t("--accent"),boxText:n?"#f5f5f5":"#212121",boxes:Tt(n)}}function _t(e,t,n){return e.map(({rank:r})=>{let o=a("button",{type:"button",class:"rank-toggle","aria-pressed":String(t(r)),"data-testid":"timeline-rank-toggle","data-rank":r,title:`Show or hide rank ${r}`},`rank ${r}`);return o.addEventListener("click",()=>n(r)),o})}function Mt(e,t){let n=a("select",{"data-testid":"timeline-step-select","aria-label":"Jump to step",disabled:e.length===0},a("option",{value:""},e.length===0?"No steps":"Jump to step…"),...e.map((r,o)=>a("option",{value:String(o)},`step ${r.step} (${b(r.end-r.start)})`)));return n.addEventListener("change",()=>{let r=e[Number(n.value)];n.value!==""&&r&&t(r)}),n}function dr(e){return typeof e=="string"?e:JSON.stringify(e)}function U(e,t){return a("tr",{},a("th",{scope:"row"},e),a("td",{},t))}function cr(e){let{event:t,peer:n}=e,r=t.flow;if(r===null)return null;let s=t.kind==="runtime"?"Launches":"Launched by",i=n?.name??`event ${r.id}`,l=a("button",{type:"button",class:"link-button","data-testid":"timeline-flow-link"},`${i} (rank ${r.rank}, ${e.laneLabel(r.lane)}) →`);return l.addEventListener("click",()=>e.onJump({rank:r.rank,id:r.id})),U(s,l)}function Rt(e){let{event:t,zero:n}=e,r=a("button",{type:"button",class:"link-button"},"Zoom to event");r.addEventListener("click",e.onZoom);let o=Object.entries(t.args);return a("div",{class:"details-body"},a("div",{class:"details-header"},a("h2",{class:"details-title",title:t.name},t.name),r),a("table",{class:"details-table"},a("tbody",{},U("kind",t.kind),U("rank",String(t.rank)),U("lane",e.laneLabel(t.lane)),U("step",t.step===null?"—":String(t.step)),U("start",`${oe(t.start-n)} from run start`),U("duration",`${b(t.dur)} (${t.dur.toLocaleString("en-US")} ns)`),U("event id",String(t.id)),cr(e))),o.length===0?null:a("table",{class:"details-table details-args","data-testid":"timeline-details-args"},a("caption",{},"Arguments"),a("tbody",{},...o.map(([s,i])=>U(s,dr(i))))))}function ur(e){return e.kind==="counter"?36:Math.max(1,e.rows)*18+6}function Et(e,t,n){let r=[],o=new Map,s=0;for(let i of e.ranks){if(!t.has(i.rank))continue;let l=n.has(i.rank);if(r.push({type:"rank",rank:i,collapsed:l,top:s,height:24}),s+=24,!l)for(let m of i.lanes){let c={type:"lane",rank:i.rank,lane:m,top:s,height:ur(m)};r.push(c),o.set(m.id,c),s+=c.height}}return{bands:r,lanes:o,height:s}}function At(e,t){return e.bands.find(n=>t>=n.top&&t<n.top+n.height)??null}function ee(e,t){return e.top+3+t*18}function Lt(e,t){let n=Math.floor((t-e.top-3)/18);return n>=0&&n<e.lane.rows?n:-1}function Pt(e){return e.bands.flatMap(t=>t.type==="rank"&&!t.collapsed?[t.rank.rank]:[])}var pr=3,mr=.0015,hr=16,fr=400,br=.8,gr=.1,vr=Math.log(10),wr=1;function yr(e){if(e.ctrlKey||e.metaKey||e.altKey)return null;let t=e.key.toLowerCase();return t==="w"||t==="a"||t==="s"||t==="d"?t:null}function Ct(e,t){return t===WheelEvent.DOM_DELTA_LINE?e*hr:t===WheelEvent.DOM_DELTA_PAGE?e*fr:e}function $t(e,t){let n=null,r=new Set,o=0,s=(d,p)=>t.zoomAt(n,d==="w"?p:1/p),i=(d,p)=>t.panBy((d==="d"?1:-1)*p*t.timeAreaWidth()),l=d=>{d==="w"||d==="s"?s(d,br):i(d,gr)},m=(d,p)=>{d==="w"||d==="s"?s(d,Math.exp(-vr*p)):i(d,wr*p)},c=d=>{if(r.size===0)return;let p=Math.min(.05,(d-o)/1e3);o=d;for(let h of r)m(h,p);requestAnimationFrame(c)};e.addEventListener("keydown",d=>{if(d.key==="Escape"){t.escape();return}let p=yr(d);p!==null&&(d.preventDefault(),!(d.repeat||r.has(p))&&(l(p),r.add(p),r.size===1&&(o=performance.now(),requestAnimationFrame(c))))}),e.addEventListener("keyup",d=>{r.delete(d.key.toLowerCase())}),e.addEventListener("blur",()=>r.clear()),e.addEventListener("wheel",d=>{if(d.offsetX<220)return;d.preventDefault();let p=Ct(d.deltaX,d.deltaMode),h=Ct(d.deltaY,d.deltaMode);Math.abs(p)>Math.abs(h)?t.panBy(p):t.zoomAt(d.offsetX,Math.exp(h*mr))},{passive:!1});let u=null;e.addEventListener("pointerdown",d=>{d.button===0&&(e.setPointerCapture(d.pointerId),u={startX:d.offsetX,lastX:d.offsetX,moved:!1})}),e.addEventListener("pointermove",d=>{if(n=d.offsetX>=220?d.offsetX:null,u===null){t.hoverAt(d.offsetX,d.offsetY);return}Math.abs(d.offsetX-u.startX)>pr&&(u.moved=!0),u.moved&&(t.panBy(u.lastX-d.offsetX),u.lastX=d.offsetX)}),e.addEventListener("pointerup",d=>{u!==null&&!u.moved&&t.clickAt(d.offsetX,d.offsetY),u=null}),e.addEventListener("pointercancel",()=>{u=null}),e.addEventListener("pointerleave",()=>{n=null,t.hoverEnd()})}var xr=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]],kr=1e4;function Sr(e){let t=10**Math.floor(Math.log10(e));return[1,2,5,10].map(n=>n*t).find(n=>n>=e)??10*t}function Nt(e){return xr.find(([t])=>e>=t)??[1,"ns"]}function Dt(e,t){return Math.max(0,Math.ceil(-Math.log10(e/t)-1e-9))}function Ht(e,t,n,r,o){let s=Math.max(1,Sr((t-e)/Math.max(1,n)*r)),i=Math.ceil((e-o)/s)*s,l=Math.abs(i)/s>kr,m=s*100,c=l?Math.floor(i/m)*m:0,u=[];for(let v=i;o+v<t;v+=s)u.push(v);let d=Math.max(s,...u.map(v=>Math.abs(v-c))),[p,h]=Nt(d),g=Dt(s,p),w=u.map(v=>`${l?"+":""}${((v-c)/p).toFixed(g)} ${h}`),_=null;if(l){let[v,k]=Nt(Math.abs(c)||1);_=`${(c/v).toFixed(Dt(m,v))} ${k}`}return{ticks:u.map(v=>o+v),labels:w,baseLabel:_}}var be="11px Roboto, 'Helvetica Neue', Arial, sans-serif",Tr="500 12px Roboto, 'Helvetica Neue', Arial, sans-serif",_r=110,Mr=1,Rr=28,Er=.45;function Ar(e){let{window:t,width:n}=e,r=(n-220)/Math.max(1,t.end-t.start);return{x:o=>220+(o-t.start)*r,left:220,right:n}}var Le=0;function Lr(e){if(Le===0){let t="aten::addmm_sgemm_128x64_nn cudaLaunchKernel ProfilerStep#12";Le=e.measureText(t).width/t.length}return Le}function Pe(e,t,n){let r=Math.floor(n/Lr(e));return r<2?null:t.length<=r?t:`${t.slice(0,r-1)}…`}function Pr(e){let t=e.scrollTop,n=t+e.height-28;return e.layout.bands.filter(r=>r.type==="lane"&&r.top+r.height>t&&r.top<n)}function Cr(e,t,n,r,o){let{theme:s,tile:i}=o,l=c=>{let u=r.x(t.start[c]??0),d=r.x(t.end[c]??0);if(d<r.left||u>r.right)return null;let p=Math.round(Math.max(u,r.left-1)),h=Math.round(Math.min(d,r.right+1));return[p,Math.max(h-p,Mr)]},m=(c,u)=>{e.rect(u[0],ee(n,t.row[c]??0)+1,u[1],16)};for(let c=0;c<40;c+=1){let u=t.colorOffsets[c]??0,d=t.colorOffsets[c+1]??0;if(u!==d){e.fillStyle=s.boxes[c]??s.accent;for(let p of[!1,!0]){e.beginPath();for(let h=u;h<d;h+=1){let g=t.byColor[h]??0;if((t.count[g]??1)>1!==p)continue;let w=l(g);w&&m(g,w)}e.globalAlpha=p?Er:1,e.fill()}}}e.globalAlpha=1,e.fillStyle=s.boxText;for(let c=0;c<t.size;c+=1){let u=l(c);if(u===null||u[1]<Rr)continue;let d=i?.names[t.name[c]??0]??"",p=t.count[c]??1,h=Pe(e,p>1?`${y(p)} × ${d}`:d,u[1]-6);h!==null&&e.fillText(h,u[0]+3,ee(n,t.row[c]??0)+18/2)}}function Ot(e){let t=0;for(let n of e.value)t=Math.max(t,n);return t||1}function $e(e,t){return/bytes/i.test(e)?G(t):y(t)}function $r(e,t,n,r,o){let{t:s,value:i}=t;if(s.length===0)return;let l=Ot(t),m=n.top+n.height-2,c=d=>m-d/l*(n.height-8),u=Math.min(r.x(o.tile?.end??o.window.end),r.right);e.beginPath(),e.moveTo(r.x(s[0]??0),m);for(let d=0;d<s.length;d+=1){let p=Math.max(r.x(s[d]??0),r.left-1),h=Math.min(d+1<s.length?r.x(s[d+1]??0):u,r.right+1),g=c(i[d]??0);e.lineTo(p,g),e.lineTo(h,g)}e.lineTo(u,m),e.closePath(),e.globalAlpha=.3,e.fillStyle=o.theme.accent,e.fill(),e.globalAlpha=1,e.strokeStyle=o.theme.accent,e.lineWidth=1,e.stroke()}function Nr(e,t,n){let r=t.layout.lanes.get(e.lane);if(!r)return null;let o=Math.max(n.x(e.start),n.left-2),s=Math.min(n.x(e.end),n.right+2);return[o,ee(r,e.row),Math.max(s-o,2)]}function It(e,t,n,r,o){let s=Nr(t,n,r);s&&(e.lineWidth=o,e.strokeStyle=n.theme.text,e.strokeRect(s[0],s[1]+.5,s[2],17))}function Dr(e,t,n,r){let o=n.layout.lanes.get(t.from.lane),s=n.layout.lanes.get(t.to.lane);if(!o||!s)return;let i=r.x(t.from.start),l=ee(o,t.from.row)+18/2,m=r.x(t.to.start),c=ee(s,t.to.row)+18/2,u=Math.max(20,Math.abs(c-l)/2);e.strokeStyle=n.theme.accent,e.fillStyle=n.theme.accent,e.lineWidth=1.5,e.beginPath(),e.moveTo(i,l),e.bezierCurveTo(i,l+Math.sign(c-l||1)*u,m,c-Math.sign(c-l||1)*u,m,c),e.stroke();let d=Math.sign(c-l||1);e.beginPath(),e.moveTo(m,c),e.lineTo(m-4,c-d*8),e.lineTo(m+4,c-d*8),e.closePath(),e.fill();for(let[p,h]of[[i,l],[m,c]])e.beginPath(),e.arc(p,h,3,0,2*Math.PI),e.fill()}function Hr(e,t){let{theme:n,width:r}=t,o=t.scrollTop,s=o+t.height-28;e.fillStyle=n.surface,e.fillRect(0,o,220,s-o),e.textBaseline="middle";for(let i of t.layout.bands)if(!(i.top+i.height<=o||i.top>=s)){if(i.type==="rank"){e.fillStyle=n.grid,e.fillRect(0,i.top,r,24),e.font=Tr,e.fillStyle=n.text;let l=`${i.collapsed?"▸":"▾"} rank ${i.rank.rank}`;e.fillText(l,8,i.top+24/2),e.font=be,e.fillStyle=n.mutedText;let m=Pe(e,gt(i.rank.alignment),140);m&&e.fillText(m,76,i.top+24/2)}else{e.font=be,e.fillStyle=n.text;let l=Pe(e,i.lane.label,196);l&&e.fillText(l,16,i.top+Math.min(i.height,24)/2);let m=t.tile?.counters.get(i.lane.id);if(m&&m.t.length>0){e.fillStyle=n.mutedText;let c=`max ${$e(i.lane.label,Ot(m))}`;e.fillText(c,16,i.top+i.height-9)}}e.fillStyle=n.border,e.fillRect(0,i.top+i.height-1,r,1)}e.fillRect(219,o,1,s-o)}function Ir(e,t,n,r){let{theme:o,width:s}=n;e.fillStyle=o.background,e.fillRect(0,0,s,28),e.fillStyle=o.border,e.fillRect(0,27,s,1),e.font=be,e.textBaseline="middle",e.fillStyle=o.mutedText,e.fillText(t.baseLabel?`from ${t.baseLabel}`:"from run start",8,28/2),t.ticks.forEach((i,l)=>{let m=Math.round(r.x(i))+.5;e.fillRect(m,22,1,5),e.fillText(t.labels[l]??"",m+3,28/2-2)})}function Wt(e,t){let{width:n,height:r,theme:o,tile:s,window:i}=t,l=Ar(t),m=Ht(i.start,i.end,n-220,_r,t.zero);e.fillStyle=o.background,e.fillRect(0,0,n,r),e.font=be,e.textBaseline="middle",e.save(),e.beginPath(),e.rect(0,28,n,r-28),e.clip(),e.translate(0,28-t.scrollTop),Hr(e,t),e.save(),e.beginPath(),e.rect(220,t.scrollTop,n-220,r),e.clip(),e.fillStyle=o.grid;for(let c of m.ticks)e.fillRect(Math.round(l.x(c)),t.scrollTop,1,r);for(let c of Pr(t)){let u=s?.lanes.get(c.lane.id);u&&Cr(e,u,c,l,t);let d=s?.counters.get(c.lane.id);d&&$r(e,d,c,l,t)}t.hovered&&It(e,t.hovered,t,l,1),t.selected&&It(e,t.selected,t,l,2),t.flow&&Dr(e,t.flow,t,l),e.restore(),e.restore(),Ir(e,m,t,l),t.emptyMessage!==null&&(e.fillStyle=o.mutedText,e.textAlign="center",e.fillText(t.emptyMessage,220+(n-220)/2,68),e.textAlign="start")}var Or=250,ge=class{constructor(t){this.options=t;this.input=a("input",{type:"search",class:"search-input",placeholder:"Search events by name","aria-label":"Search events by name","data-testid":"timeline-search",value:t.initialText});let n=a("button",{type:"button","data-testid":"timeline-prev",title:"Previous match (Shift+Enter)"},"‹ Prev"),r=a("button",{type:"button","data-testid":"timeline-next",title:"Next match (Enter)"},"Next ›");n.addEventListener("click",()=>{this.step(-1)}),r.addEventListener("click",()=>{this.step(1)}),this.input.addEventListener("input",()=>{this.options.onTextChange(this.text()),clearTimeout(this.typingTimer),this.typingTimer=window.setTimeout(()=>{this.refresh()},Or)}),this.input.addEventListener("keydown",o=>{o.key==="Enter"&&(o.preventDefault(),this.step(o.shiftKey?-1:1))}),this.element=a("div",{class:"search",role:"search"},this.input,this.count,n,r)}options;element;input;count=a("span",{class:"search-count","data-testid":"timeline-search-count","aria-live":"polite"});result=null;resultText="";index=-1;inFlight=new AbortController;typingTimer=0;text(){return this.input.value.trim()}refresh(){clearTimeout(this.typingTimer),this.inFlight.abort(),this.inFlight=new AbortController;let t=this.inFlight.signal,n=this.text();return this.index=-1,n===""?(this.result=null,this.resultText="",this.showCount(),Promise.resolve()):(this.count.textContent="…",this.options.search(n,t).then(r=>{t.aborted||(this.result=r,this.resultText=n,this.showCount())},r=>{t.aborted||(this.result=null,this.count.textContent="search failed",this.count.title=r instanceof N?r.message:String(r))}))}async step(t){(this.result===null||this.resultText!==this.text())&&await this.refresh();let n=this.result?.matches??[];if(n.length===0)return;if(this.index===-1){let o=this.options.viewStart(),s=n.findIndex(l=>l.start>=o),i=s===-1?0:s;this.index=t===1?i:(i-1+n.length)%n.length}else this.index=(this.index+t+n.length)%n.length;this.showCount();let r=n[this.index];r&&this.options.onMatch(r)}showCount(){let t=this.result;this.count.title="",t===null?this.count.textContent="":t.total===0?this.count.textContent="no matches":this.index===-1?this.count.textContent=`${y(t.total)} ${t.total===1?"match":"matches"}`:this.count.textContent=`${y(this.index+1)} / ${y(t.total)}`,t!==null&&t.total>t.matches.length&&(this.count.title=`Next and previous visit the first ${y(t.matches.length)} matches in time order.`)}};function Ft(e,t){let n=new Uint32Array(t);for(let i=0;i<e.length;i+=1){let l=e[i]??0;n[l]=(n[l]??0)+1}let r=new Uint32Array(t+1);for(let i=0;i<t;i+=1)r[i+1]=(r[i]??0)+(n[i]??0);let o=r.slice(0,t),s=new Uint32Array(e.length);for(let i=0;i<e.length;i+=1){let l=e[i]??0;s[o[l]??0]=i,o[l]=(o[l]??0)+1}return[s,r]}function Wr(e,t,n){for(let r=0;r+1<t.length;r+=1){let o=e.subarray(t[r]??0,t[r+1]??0);for(let s=1;s<o.length;s+=1)if((n[o[s]??0]??0)<(n[o[s-1]??0]??0)){o.sort((i,l)=>(n[i]??0)-(n[l]??0));break}}}function Fr(e,t){let n=e.start.length,r=new Float64Array(n),o=new Float64Array(n),s=new Uint16Array(n),i=new Uint32Array(n),l=new Uint8Array(n),m=0;for(let h=0;h<n;h+=1){let g=e.start[h]??0;r[h]=g,o[h]=g+(e.dur[h]??0);let w=e.row[h]??0;s[h]=w,m=Math.max(m,w+1);let _=e.name[h]??0;i[h]=_,l[h]=t[_]??0}let[c,u]=Ft(s,m);Wr(c,u,r);let[d,p]=Ft(l,40);return{size:n,start:r,end:o,row:s,name:i,count:Float64Array.from(e.count),eventId:Float64Array.from(e.id),byColor:d,colorOffsets:p,byRow:c,rowOffsets:u}}function Bt(e,t){let n=Uint8Array.from(e.names,St);return{start:e.start,end:e.end,nsPerPx:e.ns_per_px,ranksKey:t,names:e.names,lanes:new Map(e.lanes.map(r=>[r.id,Fr(r.boxes,n)])),counters:new Map(e.counters.map(r=>[r.id,r])),flows:e.flows}}function Xt(e,t,n,r){let o=e.rowOffsets[t],s=e.rowOffsets[t+1];if(o===void 0||s===void 0)return-1;let i=o,l=s;for(;i<l;){let u=i+l>>1;(e.start[e.byRow[u]??0]??0)<=n+r?i=u+1:l=u}let m=-1,c=1/0;for(let u=i-1;u>=Math.max(o,i-2);u-=1){let d=e.byRow[u]??0,p=e.start[d]??0,h=e.end[d]??0,g=n<p?p-n:n>h?n-h:0;g<=r&&g<c&&(m=d,c=g)}return m}var Br=60,Ut=8192,Xr=1.5;function Gt(e){return e===null?"all":e.join(",")}function zt(e,t){if(e===null||e.ranksKey!==Gt(t.ranks))return!1;let{window:n,extent:r}=t,o=(n.end-n.start)/t.widthPx;return e.start<=Math.max(n.start,r.start)&&e.end>=Math.min(n.end,r.end)&&e.nsPerPx<=o*Xr}function Ur(e){let{window:t,extent:n}=e,r=t.end-t.start,o=r/e.widthPx,s=Math.max(0,Math.min(r/2,(Ut*o-r)/2)),i=Math.floor(Math.max(n.start,t.start-s)),l=Math.ceil(Math.min(n.end,t.end+s)),m=Math.min(Ut,Math.max(1,Math.round((l-i)/o)));return{start:i,end:Math.max(l,i+1),widthPx:m,ranks:e.ranks,nsPerPx:(l-i)/m,ranksKey:Gt(e.ranks)}}var ve=class{constructor(t,n){this.run=t;this.listener=n}run;listener;timer=0;inFlight=null;want(t,n){clearTimeout(this.timer),!(zt(n,t)||zt(this.inFlight?.query??null,t))&&(this.timer=window.setTimeout(()=>this.fetch(t),Br))}refetch(t){clearTimeout(this.timer),this.fetch(t)}cancel(){clearTimeout(this.timer),this.inFlight?.controller.abort(),this.inFlight=null}fetch(t){this.cancel();let n=Ur(t),r=new AbortController;this.inFlight={query:n,controller:r},xt(this.run,n,r.signal,this.listener.onProgress).then(o=>{r.signal.aborted||(this.inFlight=null,this.listener.onTile(Bt(o,n.ranksKey)))},o=>{r.signal.aborted||(this.inFlight=null,this.listener.onError(o))})}};function Ne(e){return e.end-e.start}function ne(e,t){let n=Ne(t),r=Math.min(n,Math.max(200,Ne(e))),o=Math.min(Math.max(e.start,t.start),t.end-r);return{start:o,end:o+r}}function Kt(e,t,n,r){let o=t-(t-e.start)*n,s=t+(e.end-t)*n;return ne({start:o,end:s},r)}function Vt(e,t,n){return ne({start:e.start+t,end:e.end+t},n)}function q(e,t,n,r){let o=Math.max(t-e,200)*n;return ne({start:e-o,end:t+o},r)}function qt(e,t,n,r){if(t>=e.start&&n<=e.end)return e;let o=Ne(e);if(n-t>o*.8)return q(t,n,.1,r);let s=(t+n)/2;return ne({start:s-o/2,end:s+o/2},r)}function jt(e,t){let n=Math.max(t-e,200)*.02;return{start:e-n,end:t+n}}var zr=200,Gr=2,Kr=1;function Yt(e,t){return e!==null&&t!==null&&e.rank===t.rank&&e.id===t.id}var we=class{constructor(t,n){this.run=t;this.window=n.window,this.selected=n.selected,this.enabledRanks=n.enabledRanks&&new Set(n.enabledRanks);let r=this.canvas.getContext("2d",{alpha:!1});if(r===null)throw new Error("This browser cannot draw on a canvas.");this.ctx=r,this.theme=Ee(),this.selected&&(this.canvas.dataset.selected=`${this.selected.rank}:${this.selected.id}`),this.search=new ge({initialText:n.search,search:(s,i)=>kt(this.run,s,this.enabledRankList(),i),onMatch:s=>this.showMatch(s),onTextChange:s=>V({search:s}),viewStart:()=>this.window?.start??0}),this.tiles=new ve(t,{onTile:s=>{this.tile=s,this.status.hidden=!0,this.scheduleDraw()},onProgress:s=>this.showProgress(s),onError:s=>this.showError(s)});let o=a("button",{type:"button","data-testid":"timeline-reset"},"Reset zoom");o.addEventListener("click",()=>this.setWindow(this.bounds)),this.scroller.append(this.canvas,this.spacer),this.scroller.addEventListener("scroll",()=>this.scheduleDraw()),this.element=a("div",{class:"timeline","data-testid":"timeline","data-run":t},a("div",{class:"timeline-toolbar"},this.rankToggleGroup,this.stepPicker,o,this.search.element,a("span",{class:"muted hint"},"W/S or wheel: zoom · A/D or drag: pan · Esc: deselect")),a("div",{class:"timeline-stage"},this.scroller,this.tooltip,this.status),this.details),this.attachObservers(),$t(this.canvas,{zoomAt:(s,i)=>this.zoomAt(s,i),panBy:s=>this.panBy(s),timeAreaWidth:()=>this.timeAreaWidth(),clickAt:(s,i)=>this.clickAt(s,i),hoverAt:(s,i)=>this.hoverAt(s,i),hoverEnd:()=>this.setHover(null,null),escape:()=>this.select(null,!1)})}run;element;loaded=!1;meta=null;layout={bands:[],lanes:new Map,height:0};bounds={start:0,end:1};window;enabledRanks;collapsedRanks=new Set;tile=null;selected;selectedEvent=null;flowPeer=null;hovered=null;selectionRequest=new AbortController;canvas=a("canvas",{class:"timeline-canvas",tabindex:0,"data-testid":"timeline-canvas","aria-label":"Timeline: W/S or the wheel zoom, A/D or dragging pan, click selects"});ctx;theme;scroller=a("div",{class:"timeline-scroller"});spacer=a("div",{class:"timeline-spacer"});tooltip=a("div",{class:"chart-tooltip timeline-tooltip",hidden:!0});status=a("div",{class:"timeline-status","data-testid":"timeline-status",hidden:!0});details=a("section",{class:"timeline-details","data-testid":"timeline-details","aria-live":"polite"},a("p",{class:"muted"},"Click an event to see its details."));rankToggleGroup=a("div",{class:"rank-toggles",role:"group","aria-label":"Ranks"});stepPicker=a("label",{class:"step-picker"});search;tiles;observers=[];size={width:0,height:0,dpr:1};drawPending=!1;hashTimer=0;async load(t,n){let r=await yt(this.run,t,n);t.aborted||(this.meta=r,this.loaded=!0,this.bounds=jt(r.start,r.end),this.relayout(),this.setWindow(this.window??this.bounds),this.stepPicker.replaceChildren(Mt(r.steps,o=>this.setWindow(q(o.start,o.end,.02,this.bounds)))),this.tile=null,this.tiles.cancel(),this.requestTiles(!0),this.selected&&this.select(this.selected,!1),this.search.refresh())}showStep(t){let n=this.meta?.steps.find(r=>r.step===t);n&&this.setWindow(q(n.start,n.end,.02,this.bounds))}dispose(){this.tiles.cancel(),this.selectionRequest.abort();for(let t of this.observers)t.disconnect()}attachObservers(){let t=new ResizeObserver(()=>this.resize());t.observe(this.scroller);let n=new MutationObserver(()=>{this.theme=Ee(),this.scheduleDraw()});n.observe(document.documentElement,{attributes:!0,attributeFilter:["data-theme"]}),this.observers.push(t,n)}enabledRankList(){return this.enabledRanks&&[...this.enabledRanks].sort((t,n)=>t-n)}isRankEnabled(t){return this.enabledRanks===null||this.enabledRanks.has(t)}relayout(){let t=this.meta;if(!t)return;let n=new Set(t.ranks.map(r=>r.rank).filter(r=>this.isRankEnabled(r)));this.layout=Et(t,n,this.collapsedRanks),this.rankToggleGroup.replaceChildren(..._t(t.ranks,r=>this.isRankEnabled(r),r=>this.toggleRank(r))),this.resizeSpacer(),this.scheduleDraw()}toggleRank(t){let n=this.meta?.ranks.map(o=>o.rank)??[],r=this.enabledRanks??new Set(n);r.has(t)?r.delete(t):r.add(t),this.enabledRanks=n.every(o=>r.has(o))?null:r,V({enabledRanks:this.enabledRankList()}),this.relayout(),this.requestTiles(!1),this.search.refresh()}toggleCollapsed(t){this.collapsedRanks.has(t)?this.collapsedRanks.delete(t):this.collapsedRanks.add(t),this.relayout(),this.requestTiles(!1)}setWindow(t){this.window=ne(t,this.bounds),this.canvas.dataset.start=String(Math.round(this.window.start)),this.canvas.dataset.end=String(Math.round(this.window.end)),this.scheduleDraw(),this.requestTiles(!1),clearTimeout(this.hashTimer),this.hashTimer=window.setTimeout(()=>V({window:this.window}),zr)}requestTiles(t){let n=this.meta,r=this.window,o=this.timeAreaWidth();if(!n||!r||o<=0)return;let s=Pt(this.layout);if(s.length===0)return;let i=s.length===n.ranks.length,l={window:r,widthPx:o,ranks:i?null:s,extent:{start:n.start,end:n.end}};t?this.tiles.refetch(l):this.tiles.want(l,this.tile)}timeAreaWidth(){return Math.max(0,this.size.width-220)}timeAt(t){let n=this.window??this.bounds;return n.start+(t-220)/Math.max(1,this.timeAreaWidth())*(n.end-n.start)}nsPerPx(){let t=this.window??this.bounds;return(t.end-t.start)/Math.max(1,this.timeAreaWidth())}zoomAt(t,n){let r=this.window;if(!r)return;let o=t===null?(r.start+r.end)/2:this.timeAt(t);this.navigateTo(Kt(r,o,n,this.bounds))}panBy(t){this.window&&this.navigateTo(Vt(this.window,t*this.nsPerPx(),this.bounds))}navigateTo(t){(t.start!==this.window?.start||t.end!==this.window.end)&&this.setWindow(t)}select(t,n){this.selectionRequest.abort(),this.selectionRequest=new AbortController;let r=this.selectionRequest.signal;if(Yt(t,this.selectedEvent)||(this.selectedEvent=null,this.flowPeer=null),this.selected=t,t?this.canvas.dataset.selected=`${t.rank}:${t.id}`:delete this.canvas.dataset.selected,V({selected:t}),this.scheduleDraw(),t===null){this.details.replaceChildren(a("p",{class:"muted"},"Click an event to see its details."));return}this.loadSelection(t,n,r)}async loadSelection(t,n,r){try{let o=await Re(this.run,t,r);if(r.aborted)return;if(this.selectedEvent=o,n&&this.window&&this.setWindow(qt(this.window,o.start,o.start+o.dur,this.bounds)),this.showDetails(),this.scheduleDraw(),o.flow){if(this.flowPeer=await Re(this.run,o.flow,r),r.aborted)return;this.showDetails(),this.scheduleDraw()}}catch(o){if(r.aborted)return;this.details.replaceChildren(a("p",{class:"error",role:"alert"},`Could not load the event: ${o instanceof N?o.message:String(o)}`))}}showDetails(){let t=this.selectedEvent;t&&this.details.replaceChildren(Rt({event:t,peer:this.flowPeer,zero:this.meta?.start??0,laneLabel:n=>this.laneLabel(n),onJump:n=>{this.revealRank(n.rank),this.select(n,!0)},onZoom:()=>this.setWindow(q(t.start,t.start+t.dur,.5,this.bounds))}))}laneLabel(t){for(let n of this.meta?.ranks??[]){let r=n.lanes.find(o=>o.id===t);if(r)return r.label}return t}revealRank(t){this.collapsedRanks.delete(t)&&(this.relayout(),this.requestTiles(!1))}showMatch(t){this.revealRank(t.rank),this.setWindow(q(t.start,t.start+t.dur,Kr,this.bounds)),this.select({rank:t.rank,id:t.id},!1)}hitTest(t,n){if(n<28)return null;let r=At(this.layout,n-28+this.scroller.scrollTop);if(!r)return null;if(r.type==="rank")return{rankBand:r.rank.rank};let o=this.timeAt(t),s=Lt(r,n-28+this.scroller.scrollTop),i=this.tile?.lanes.get(r.lane.id),l=i&&s>=0&&t>=220?Xt(i,s,o,Gr*this.nsPerPx()):-1;return{band:r,box:l,row:s,time:o}}clickAt(t,n){this.canvas.focus();let r=this.hitTest(t,n);if(r&&"rankBand"in r){this.toggleCollapsed(r.rankBand);return}let o=r&&this.tile?.lanes.get(r.band.lane.id);if(!r||!o||r.box<0){t>=220&&this.select(null,!1);return}let s=o.count[r.box]??1,i=o.start[r.box]??0,l=o.end[r.box]??0;s>1?this.setWindow(q(i,l,.1,this.bounds)):this.select({rank:r.band.rank,id:o.eventId[r.box]??-1},!1)}hoverAt(t,n){let r=this.hitTest(t,n);if(r===null)return this.setHover(null,null);if("rankBand"in r){let p=this.meta?.ranks.find(h=>h.rank===r.rankBand);return this.canvas.style.cursor="pointer",this.setHover(null,p?[`rank ${p.rank} (click to ${this.collapsedRanks.has(p.rank)?"expand":"collapse"})`,...vt(p.alignment)]:null,t,n)}this.canvas.style.cursor="";let o=r.band.lane;if(t<220)return this.setHover(null,[o.label,`rank ${r.band.rank} · ${o.kind}`],t,n);if(o.kind==="counter")return this.setHover(null,this.counterTooltip(r),t,n);let s=this.tile?.lanes.get(o.id);if(!s||r.box<0)return this.setHover(null,null);let i=s.start[r.box]??0,l=s.end[r.box]??0,m=s.count[r.box]??1,c=this.tile?.names[s.name[r.box]??0]??"",u=this.meta?.start??0,d=m>1?[`${y(m)} events`,`longest: ${c}`,`over ${b(l-i)} from ${oe(i-u)}`,"click to zoom in"]:[c,`duration ${b(l-i)}`,`start ${oe(i-u)}`];this.setHover({lane:o.id,row:r.row,start:i,end:l},d,t,n)}counterTooltip(t){let n=this.tile?.counters.get(t.band.lane.id);if(!n)return null;let r=-1;for(let s=0;s<n.t.length&&(n.t[s]??0)<=t.time;s+=1)r=s;let o=n.value[r];return o===void 0?null:[t.band.lane.label,$e(t.band.lane.label,o)]}setHover(t,n,r=0,o=0){if(this.hovered=t,this.scheduleDraw(),n===null){this.tooltip.hidden=!0;return}let[s,...i]=n;this.tooltip.replaceChildren(a("div",{class:"tooltip-title"},s??""),...i.map(m=>a("div",{},m))),this.tooltip.hidden=!1;let l=r+16+this.tooltip.offsetWidth>this.size.width;this.tooltip.style.left=`${l?r-12-this.tooltip.offsetWidth:r+16}px`,this.tooltip.style.top=`${o+16}px`}showProgress(t){let n=Math.round(Math.min(1,Math.max(0,t.fraction))*100);this.status.removeAttribute("role"),this.status.textContent=`Reading run files… ${n} % (${G(t.done_bytes)} of ${G(t.total_bytes)})`,this.status.hidden=!1}showError(t){let n=t instanceof N?`${t.message} (${t.code})`:String(t);this.status.setAttribute("role","alert"),this.status.textContent=`Could not load this part of the timeline: ${n}`,this.status.hidden=!1}resize(){let t=this.scroller.clientWidth,n=this.scroller.clientHeight,r=window.devicePixelRatio||1;t===this.size.width&&n===this.size.height&&r===this.size.dpr||(this.size={width:t,height:n,dpr:r},!(t===0||n===0)&&(this.canvas.style.width=`${t}px`,this.canvas.style.height=`${n}px`,this.canvas.width=Math.round(t*r),this.canvas.height=Math.round(n*r),this.resizeSpacer(),this.requestTiles(!1),this.drawNow()))}resizeSpacer(){this.spacer.style.height=`${Math.max(0,28+this.layout.height-this.size.height)}px`}scheduleDraw(){this.drawPending||(this.drawPending=!0,requestAnimationFrame(()=>this.drawNow()))}drawNow(){this.drawPending=!1;let{width:t,height:n,dpr:r}=this.size;t===0||n===0||!this.window||(this.ctx.setTransform(r,0,0,r,0,0),Wt(this.ctx,{width:t,height:n,scrollTop:this.scroller.scrollTop,window:this.window,zero:this.meta?.start??0,layout:this.layout,tile:this.tile,theme:this.theme,hovered:this.hovered,...this.selectionSpans(),emptyMessage:this.emptyMessage()}))}emptyMessage(){return this.layout.bands.length>0?null:this.meta?.ranks.length?"Every rank is hidden: turn one on with the rank buttons above.":"This run has no timeline events: no MyTimer spans and no profiler traces yet."}selectionSpans(){let t=this.selectedEvent;if(!t||!Yt(t,this.selected))return{selected:null,flow:null};let n=s=>({lane:s.lane,row:s.row,start:s.start,end:s.start+s.dur}),r=n(t),o=this.flowPeer;return o?t.kind==="runtime"?{selected:r,flow:{from:r,to:n(o)}}:{selected:r,flow:{from:n(o),to:r}}:{selected:r,flow:null}}};var ie=null,De=!1;function Vr(e){if(ie?.run===e)return ie;ie?.dispose();let t=De?Me:bt();return De&&V(Me),De=!0,ie=new we(e,t),ie}var Jt={id:"timeline",label:"Timeline",usesRankSelect:!1,async show({run:e,signal:t,refresh:n,onProgress:r,params:o}){let s=Vr(e);(n||!s.loaded)&&await s.load(t,r);let i=Number(o.step);return o.step!=null&&Number.isInteger(i)&&s.showStep(i),s.element}};var j=[ht,Jt,dt,Qe,lt];var He="";function Zt(e){let t=j[0];if(t===void 0)throw new Error("no dashboards registered");return j.find(n=>n.id===e)??t}function qr(e){let t=Math.round(Math.min(1,Math.max(0,e.fraction))*100),n=a("div",{class:"progress-bar"});return n.style.width=`${t}%`,a("div",{class:"progress","data-testid":"progress"},a("div",{class:"progress-track",role:"progressbar","aria-valuemin":0,"aria-valuemax":100,"aria-valuenow":t},n),a("p",{},`Reading run files… ${t} % (${G(e.done_bytes)} of ${G(e.total_bytes)})`))}function Qt(e,t){let n=t instanceof N?`${t.message} (${t.code})`:String(t);return a("div",{class:"error","data-testid":"error",role:"alert"},a("strong",{},e),a("p",{},n))}function jr(){return a("div",{class:"empty","data-testid":"empty"},a("h2",{},"No runs yet"),a("p",{},"This logdir holds no tb-perf runs. See the README quick start to record one with the collectors (or point TensorBoard at a torch.profiler trace directory), then press TensorBoard's reload button."))}function en(e){return e instanceof DOMException&&e.name==="AbortError"}var ye=class{runs=[];run;rank;dashboard;inFlight=new AbortController;runSelect=a("select",{"data-testid":"run-select","aria-label":"Run"});runStatus=a("span",{class:"badge","data-testid":"run-status"});rankSelect=a("select",{"data-testid":"rank-select","aria-label":"Rank"});rankLabel=a("label",{},"Rank ",this.rankSelect);tabs=j.map(t=>a("button",{type:"button",role:"tab",class:"tab","data-testid":`tab-${t.id}`},t.label));toolbar=a("header",{class:"toolbar",hidden:!0},a("nav",{class:"tabs",role:"tablist","aria-label":"Dashboards"},...this.tabs),a("label",{},"Run ",this.runSelect),this.runStatus,this.rankLabel);content=a("main",{class:"content"},a("p",{class:"muted"},"Loading runs…"));constructor(t){let n=C();this.run=n.get("run");let r=Number.parseInt(n.get("rank")??"",10);this.rank=Number.isInteger(r)?r:null,this.dashboard=Zt(n.get("dashboard")),this.showActiveTab(),this.tabs.forEach((o,s)=>o.addEventListener("click",()=>{let i=j[s];i===void 0||i===this.dashboard||this.open(i,{})})),this.runSelect.addEventListener("change",()=>{this.run=this.runSelect.value,this.showSelectedRun(),this.loadDashboard(this.restart(),!0)}),this.rankSelect.addEventListener("change",()=>{this.rank=this.rankSelect.value===He?null:Number(this.rankSelect.value),this.saveSelection(),this.loadDashboard(this.restart(),!0)}),t.replaceChildren(a("div",{class:"app"},this.toolbar,this.content))}async reload(){let t=this.restart();try{this.runs=await Ie(t)}catch(n){en(n)||this.content.replaceChildren(Qt("Could not list the runs",n));return}if(this.toolbar.hidden=this.runs.length===0,this.runs.length===0){this.run=null,this.content.replaceChildren(jr());return}this.runSelect.replaceChildren(...this.runs.map(n=>a("option",{value:n.name},`${n.name} (${n.status})`))),this.runs.some(n=>n.name===this.run)||(this.run=this.runs[0]?.name??null),this.showSelectedRun(),await this.loadDashboard(t,!0)}restart(){return this.inFlight.abort(),this.inFlight=new AbortController,this.inFlight.signal}open(t,n){this.dashboard=t;let r=Number(n.rank);t.usesRankSelect&&n.rank!=null&&Number.isInteger(r)&&(this.rank=r,this.rankSelect.value=String(r)),this.showActiveTab(),this.saveSelection(),this.loadDashboard(this.restart(),!1,n)}showActiveTab(){this.tabs.forEach((t,n)=>{let r=j[n]===this.dashboard;t.setAttribute("aria-selected",String(r)),t.classList.toggle("active",r)}),this.rankLabel.hidden=!this.dashboard.usesRankSelect}selectedRun(){return this.runs.find(t=>t.name===this.run)}showSelectedRun(){let t=this.selectedRun();t&&(this.runSelect.value=t.name,this.runStatus.textContent=t.status,this.runStatus.className=`badge status-${t.status}`,this.rank!==null&&!t.ranks.includes(this.rank)&&(this.rank=null),this.fillRankSelect(t.ranks.map(n=>({rank:n}))),this.saveSelection())}fillRankSelect(t){this.rankSelect.replaceChildren(a("option",{value:He},"All ranks"),...t.map(n=>a("option",{value:String(n.rank)},n.host?`rank ${n.rank} · ${n.host}`:`rank ${n.rank}`))),this.rankSelect.value=this.rank===null?He:String(this.rank)}saveSelection(){let t=this.dashboard===j[0];L({run:this.run,rank:this.rank===null?null:String(this.rank),dashboard:t?null:this.dashboard.id})}async loadDashboard(t,n,r={}){let o=this.run;if(o!==null){this.content.setAttribute("aria-busy","true");try{let s=await this.dashboard.show({run:o,rank:this.rank,signal:t,refresh:n,onProgress:i=>this.content.replaceChildren(qr(i)),onRanks:i=>this.fillRankSelect(i),navigate:(i,l)=>this.open(Zt(i),l),params:r});t.aborted||this.content.replaceChildren(s)}catch(s){en(s)||this.content.replaceChildren(Qt(`Could not load run “${o}”`,s))}finally{t.aborted||this.content.removeAttribute("aria-busy")}}}};var Yr="experimental.DataReloaded";function Jr(e){if(typeof e!="string")return null;try{let t=JSON.parse(e);return typeof t=="object"&&t!==null&&"type"in t&&"id"in t?t:null}catch{return null}}function tn(e){if(window.parent===window)return;let t=new MessageChannel;t.port1.onmessage=n=>{let r=Jr(n.data);if(r===null||r.isReply)return;let o={type:r.type,id:r.id,payload:null,error:null,isReply:!0};t.port1.postMessage(JSON.stringify(o)),r.type===Yr&&e()};try{window.parent.postMessage("experimental.bootstrap","*",[t.port2])}catch{}}var nn=`/* Colours follow TensorBoard: white / #303030 backgrounds, orange accent. theme.ts sets data-theme. */
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
`;function Si(){document.head.append(a("style",{},nn)),Ke();let e=new ye(document.body);tn(()=>{e.reload()}),e.reload()}export{Si as render};

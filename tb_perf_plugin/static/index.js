var I=class extends Error{constructor(n,r){super(r);this.code=n}code};function we(e){return typeof e=="object"&&e!==null}function Yn(e){return we(e)&&we(e.progress)?e.progress:null}function jn(e,t){let n=we(t)?t.error:void 0;return we(n)&&typeof n.message=="string"?new I(String(n.code??"error"),n.message):new I("http_error",`The server answered HTTP ${e}.`)}function Jn(e,t){return new Promise((n,r)=>{let s=setTimeout(n,e);t.addEventListener("abort",()=>{clearTimeout(s),r(t.reason)},{once:!0})})}async function Zn(e,t){try{return await fetch(e,{signal:t,headers:{Accept:"application/json"}})}catch(n){throw t.aborted?n:new I("unreachable","The TensorBoard server did not answer. Is it still running?")}}async function R(e,t,n){for(;;){let r=await Zn(e,t),s=await r.json().catch(()=>null),o=r.status===202?Yn(s):null;if(o){n?.(o),await Jn(500,t);continue}if(!r.ok)throw jn(r.status,s);if(s===null)throw new I("bad_response","The server sent a response that is not JSON.");return s}}function O(e,t={}){let n=new URLSearchParams({run:e});for(let[r,s]of Object.entries(t))s!==null&&n.set(r,String(s));return n.toString()}function ye(e){return R("./runs",e)}function lt(e,t,n,r){let s=new URLSearchParams({run:e});return t!==null&&s.set("rank",String(t)),R(`./summary?${s}`,n,r)}function dt(e,t){for(let[n,r]of Object.entries(t))r===void 0||r===!1||e.setAttribute(n,r===!0?"":String(r))}function a(e,t={},...n){let r=document.createElement(e);dt(r,t);for(let s of n)s!=null&&s!==!1&&r.append(s);return r}var Qn="http://www.w3.org/2000/svg";function T(e,t={},...n){let r=document.createElementNS(Qn,e);dt(r,t);for(let s of n)s!=null&&s!==!1&&r.append(s);return r}var L={top:10,right:16,bottom:38,left:68},er=90,tr=40;function ct(e,t,n,r){let o=(t-e||Math.abs(t)||1)/Math.max(1,n),i=10**Math.floor(Math.log10(o)),l=[1,2,5,10].map(d=>d*i).find(d=>d>=o)??10*i;r&&(l=Math.max(1,Math.round(l)));let u=Math.floor(e/l)*l,c=Math.max(Math.ceil(t/l)*l,u+l),m=[];for(let d=0;u+d*l<=c+l/2;d+=1)m.push(Number((u+d*l).toPrecision(12)));return{min:u,max:c,ticks:m}}function pt(e,t){let n=0,r=e.length;for(;n<r;){let s=n+r>>1;(e[s]??1/0)<t?n=s+1:r=s}return n}function nr(e,t){let n=null;for(let{x:r}of e){let s=pt(r,t);for(let o of[r[s-1],r[s]])o!==void 0&&(n===null||Math.abs(o-t)<Math.abs(n-t))&&(n=o)}return n}function ut(e){let t=1/0,n=-1/0;for(let r of e)r<t&&(t=r),r>n&&(n=r);return[t,n]}function*mt(e,t){for(let n of e)yield*n[t]}function rr(e,t,n){let{series:r,height:s}=e,o=t-L.left-L.right,i=s-L.top-L.bottom,[l,u]=ut(mt(r,"x")),[,c]=ut(mt(r,"y")),m=ct(l,u,o/er,!0),d=ct(0,c,i/tr,!1),p=_=>L.left+(_-m.min)/(m.max-m.min)*o,h=_=>L.top+(1-(_-d.min)/(d.max-d.min))*i,b=L.top+i,v=T("svg",{width:t,height:s,class:"chart-svg",role:"img"}),S=e.yTickFormat(d.ticks);for(let _ of d.ticks){let H=h(_).toFixed(1);v.append(T("line",{class:"chart-grid",x1:L.left,x2:t-L.right,y1:H,y2:H}),T("text",{class:"chart-tick",x:L.left-6,y:H,"text-anchor":"end","dominant-baseline":"middle"},S(_)))}for(let _ of m.ticks)v.append(T("text",{class:"chart-tick",x:p(_).toFixed(1),y:b+16,"text-anchor":"middle"},e.formatX(_)));if(v.append(T("line",{class:"chart-axis",x1:L.left,x2:t-L.right,y1:b,y2:b}),T("text",{class:"chart-label",x:L.left+o/2,y:s-4,"text-anchor":"middle"},e.xLabel)),e.markers?.length){let _=T("g",{class:"chart-markers","data-testid":`${e.testId}-markers`});for(let H of e.markers){if(H<m.min||H>m.max)continue;let B=p(H).toFixed(1);_.append(T("line",{class:"chart-mark",x1:B,x2:B,y1:L.top,y2:b}))}v.append(_)}for(let _ of r){let H=_.x.map((B,C)=>`${p(B).toFixed(1)},${h(_.y[C]??0).toFixed(1)}`);v.append(H.length===1?T("circle",{cx:p(_.x[0]??0),cy:h(_.y[0]??0),r:3,fill:_.color,"data-series":_.label}):T("polyline",{class:_.dashed?"chart-line chart-dashed":"chart-line",points:H.join(" "),stroke:_.color,"data-series":_.label}))}let y=T("line",{class:"chart-guide",y1:L.top,y2:b,visibility:"hidden"}),k=T("g"),W=T("rect",{x:L.left,y:L.top,width:o,height:i,class:"chart-hover"});v.append(y,k,W);let J=()=>{y.setAttribute("visibility","hidden"),k.replaceChildren(),n.hidden=!0};return W.addEventListener("pointerleave",J),W.addEventListener("pointermove",_=>{let H=v.getBoundingClientRect().left,B=m.min+(_.clientX-H-L.left)/o*(m.max-m.min),C=nr(r,B);if(C===null)return J();let ge=[];k.replaceChildren();for(let X of r){let se=pt(X.x,C),g=X.y[se];X.x[se]!==C||g===void 0||(k.append(T("circle",{cx:p(C),cy:h(g),r:3.5,fill:X.color,class:"chart-marker"})),ge.push(a("div",{class:"tooltip-row"},a("span",{class:"swatch",style:`background:${X.color}`}),`${X.label}: ${e.formatY(g)}`)))}y.setAttribute("x1",p(C).toFixed(1)),y.setAttribute("x2",p(C).toFixed(1)),y.setAttribute("visibility","visible"),n.replaceChildren(a("div",{class:"tooltip-title"},`${e.xLabel} ${e.formatX(C)}`),...ge),n.hidden=!1;let re=12,ve=p(C)+re+n.offsetWidth>t;n.style.left=`${ve?p(C)-re-n.offsetWidth:p(C)+re}px`,n.style.top=`${L.top}px`}),v}function G(e){let t=a("div",{class:"chart-tooltip",role:"tooltip","data-testid":`${e.testId}-tooltip`});t.hidden=!0;let n=a("div",{class:"chart-plot",style:`min-height:${e.height}px`},t),r=a("ul",{class:"chart-legend"},...e.series.map(o=>a("li",{},a("span",{class:"swatch",style:`background:${o.color}`}),o.label)),e.markers?.length&&e.markerLabel?a("li",{},a("span",{class:"swatch chart-mark-swatch"}),e.markerLabel):null),s=0;return new ResizeObserver(()=>{let o=n.clientWidth;o===0||o===s||(s=o,n.replaceChildren(rr(e,o,t),t))}).observe(n),a("figure",{class:"chart","data-testid":e.testId},n,r)}var sr=new Intl.NumberFormat("en-US");function de(e){let t=Math.abs(e),n=t>=100?0:t>=10?1:2;return new Intl.NumberFormat("en-US",{minimumFractionDigits:n,maximumFractionDigits:n}).format(e)}function f(e){if(e==null||!Number.isFinite(e))return"—";let t=Math.abs(e);return t>=1e9?`${de(e/1e9)} s`:t>=1e6?`${de(e/1e6)} ms`:t>=1e3?`${de(e/1e3)} µs`:`${Math.round(e)} ns`}var ht=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]];function xe(e){let t=Math.max(0,...e.map(Math.abs)),[n,r]=ht.find(([i])=>t>=i)??[1,"ns"],s=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/n:1,o=Math.min(3,Math.max(0,-Math.floor(Math.log10(s))));return i=>`${(i/n).toFixed(o)} ${r}`}function w(e){return e==null?"—":sr.format(e)}function Z(e){return e==null||!Number.isFinite(e)?"—":e>0&&e<.05?"<0.1 %":`${e.toFixed(1)} %`}function Y(e){let t=["B","KB","MB","GB","TB"],n=e,r=0;for(;n>=1e3&&r<t.length-1;)n/=1e3,r+=1;return r===0?`${e} B`:`${de(n)} ${t[r]}`}function Q(e){let[t,n]=ht.find(([s])=>Math.abs(e)>=s)??[1,"ns"],r=Math.round(Math.log10(t));return`${(e/t).toFixed(r)} ${n}`}var ft=[[1024**4,"TiB"],[1024**3,"GiB"],[1024**2,"MiB"],[1024,"KiB"],[1,"B"]];function x(e){if(e==null||!Number.isFinite(e))return"—";let[t,n]=ft.find(([r])=>Math.abs(e)>=r)??[1,"B"];return t===1?`${Math.round(e)} B`:`${de(e/t)} ${n}`}function ae(e){let t=Math.max(0,...e.map(Math.abs)),[n,r]=ft.find(([i])=>t>=i)??[1,"B"],s=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/n:1,o=Math.min(3,Math.max(0,-Math.floor(Math.log10(s))));return i=>`${(i/n).toFixed(o)} ${r}`}function oe(e){return t=>{let n=t.length>1?Math.abs((t[1]??0)-(t[0]??0)):1,r=Math.min(3,Math.max(0,-Math.floor(Math.log10(n||1))));return s=>`${s.toFixed(r)}${e}`}}function A(){return new URLSearchParams(location.hash.slice(1))}function $(e){let t=A();for(let[r,s]of Object.entries(e))s===null?t.delete(r):t.set(r,s);let n=new URL(location.href);n.hash=t.toString(),history.replaceState(history.state,"",n.href)}var ar={asc:"ascending",desc:"descending"},or={asc:" ▲",desc:" ▼"},ir={asc:"desc",desc:"asc"};function lr(e,t){return typeof e=="number"&&typeof t=="number"?e-t:String(e).localeCompare(String(t))}function dr(e,t,n){let r=n==="asc"?1:-1;return[...e].sort((s,o)=>{let i=t.value(s),l=t.value(o);return i===null||l===null?i===l?0:i===null?1:-1:r*lr(i,l)})}function cr(e){return e.numeric?"desc":"asc"}function F(e){let{columns:t,testId:n}=e,r=e.sort,s=a("table",{class:"data-table","data-testid":n}),o=a("tr"),i=a("tbody");s.append(a("thead",{},o),i);let l=()=>{o.replaceChildren(...t.map(c=>{let m=r?.key===c.key?r.direction:void 0,d=a("th",{class:c.numeric?"numeric":void 0,title:c.title,"aria-sort":m&&ar[m],"data-column":c.key});if(!r)return d.append(c.label),d;let p=m?or[m]:"",h=a("button",{type:"button",class:"sort-button"},c.label+p);return h.addEventListener("click",()=>{let b=m===void 0?cr(c):ir[m];r={key:c.key,direction:b},e.onSortChange?.(r),l(),u()}),d.append(h),d}))},u=()=>{let c=r&&t.find(d=>d.key===r?.key),m=r&&c?dr(e.rows,c,r.direction):e.rows;i.replaceChildren(...m.map(d=>a("tr",{"data-testid":e.rowTestId,"data-name":e.rowName(d),class:e.rowClass?.(d)},...t.map(p=>{let h=p.value(d);return a("td",{class:p.numeric?"numeric":void 0,"data-column":p.key,"data-value":h===null?void 0:String(h)},p.render?p.render(d):p.format?p.format(d):String(h??"—"))}))))};return l(),u(),s}function We(e){document.documentElement.dataset.theme=e?"dark":"light"}function ur(){if(window.parent===window)return null;try{return window.parent.document.body}catch{return null}}function gt(){let e=ur();if(e){let n=()=>We(e.classList.contains("dark-mode"));n(),new MutationObserver(n).observe(e,{attributes:!0,attributeFilter:["class"]});return}let t=window.matchMedia("(prefers-color-scheme: dark)");We(t.matches),t.addEventListener("change",n=>We(n.matches))}var bt=["#4e79a7","#f28e2b","#e15759","#76b7b2","#59a14f","#edc948","#b07aa1","#ff9da7","#9c755f","#bab0ac"];function D(e){return bt[Math.max(0,e)%bt.length]??"#888"}function vt(e,t,n){return R(`./findings?${O(e)}`,t,n)}function wt(e,t,n,r){return R(`./breakdown?${O(e,{rank:t})}`,n,r)}function ke(e,t,n,r,s,o){let i=`./operators?${O(e,{rank:t,group_by:n,limit:r})}`;return R(i,s,o)}function Se(e,t,n,r,s){return R(`./kernels?${O(e,{rank:t,limit:n})}`,r,s)}function yt(e,t,n,r){return R(`./modules?${O(e,{rank:t})}`,n,r)}function xt(e,t,n,r,s){return R(`./module_steps?${O(e,{rank:t,path:n,phase:r})}`,s)}var mr=1e3,kt=(e,t,n="")=>e===null?"—":`${e.toFixed(t)}${n}`,St=[{key:"name",label:"kernel",numeric:!1,value:e=>e.name},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>w(e.calls)},{key:"total_ns",label:"total",numeric:!0,value:e=>e.total_ns,format:e=>f(e.total_ns)},{key:"mean_ns",label:"mean",numeric:!0,value:e=>e.mean_ns,format:e=>f(e.mean_ns)},{key:"max_ns",label:"max",numeric:!0,value:e=>e.max_ns,format:e=>f(e.max_ns)},{key:"pct_of_kernel_time",label:"% of GPU time",numeric:!0,value:e=>e.pct_of_kernel_time,format:e=>`${e.pct_of_kernel_time.toFixed(1)} %`},{key:"tensor_cores",label:"Tensor Cores",title:"Guessed from the kernel's name (docs/ANALYSIS.md)",numeric:!1,value:e=>e.tensor_cores?"yes":"no"},{key:"mean_est_occupancy_pct",label:"est. occupancy",numeric:!0,value:e=>e.mean_est_occupancy_pct,format:e=>kt(e.mean_est_occupancy_pct,1," %")},{key:"est_sm_efficiency",label:"est. SM efficiency",numeric:!0,value:e=>e.est_sm_efficiency,format:e=>kt(e.est_sm_efficiency===null?null:e.est_sm_efficiency*100,1," %")}];function pr(){let e=A(),t=e.get("ksort"),n=e.get("kdir");return St.some(r=>r.key===t)&&(n==="asc"||n==="desc")?{key:t,direction:n}:{key:"total_ns",direction:"desc"}}function hr(e){if(e.length===0)return a("p",{class:"muted"},"No GPU kernels in this run's traces.");let t=e.flatMap((n,r)=>{let s=BigInt(n.start_ns[0]??"0"),o=n.start_ns.map(l=>Number(BigInt(l)-s)),i=`rank ${n.rank} GPU ${n.device}`;return[{label:`${i} utilization`,color:D(2*r),x:o,y:n.utilization.map(l=>l*100)},{label:`${i} est. SM efficiency`,color:D(2*r+1),x:o,y:n.est_sm_efficiency.map(l=>l*100)}]});return G({series:t,height:220,xLabel:"time from the trace's start",formatX:f,formatY:n=>`${n.toFixed(1)} %`,yTickFormat:()=>n=>`${n} %`,testId:"gpu-utilization-chart"})}var Tt={id:"kernels",label:"Kernels",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let s=await Se(e,t,mr,n,r),o=s.devices.map(l=>`rank ${l.rank} GPU ${l.device}: ${l.tensor_core_pct.toFixed(1)} % of kernel time on Tensor Cores (by name)`),i=s.rows.length===0?a("p",{class:"muted"},"No GPU kernels in this run's traces."):F({columns:St,rows:s.rows,testId:"kernel-table",rowTestId:"kernel-row",rowName:l=>l.name,sort:pr(),onSortChange:l=>$({ksort:l.key,kdir:l.direction})});return a("div",{class:"overview","data-testid":"kernels"},a("section",{class:"panel"},a("h2",{},"GPU utilization and est. SM efficiency"),hr(s.devices),...o.map(l=>a("p",{class:"muted"},l))),a("section",{class:"panel"},a("h2",{},"Kernels"),a("div",{class:"table-scroll"},i)))}};function _t(e){let t=new Set(e.map(s=>s.path)),n=[],r=new Map;for(let s of e){if(s.parent===null||!t.has(s.parent)){n.push(s);continue}let o=r.get(s.parent);o?o.push(s):r.set(s.parent,[s])}return{roots:n,children:r}}function Mt(e,t){let n=new Set;return e.filter(r=>r.parent!==null&&(t.has(r.parent)||n.has(r.parent))?(n.add(r.path),!1):!0)}function Rt(e,t,n,r=.5){let s=[],o=new Map,i=c=>{let m=o.get(c.path);return m===void 0&&(m=Math.max(0,t(c)),m===0&&(m=l(e.children.get(c.path)??[])),o.set(c.path,m)),m},l=c=>c.reduce((m,d)=>m+i(d),0),u=(c,m,d,p,h)=>{let b=m;for(let v of c){let S=p>0?d*i(v)/p:0;if(S>=r){s.push({row:v,x:b,width:S,level:h});let y=e.children.get(v.path)??[];u(y,b,S,Math.max(i(v),l(y)),h+1)}b+=S}};return u(e.roots,0,n,l(e.roots),0),s}var Be=20,fr=6.5,br=24;function gr(e,t){let n=Math.floor((t-6)/fr);return t<br||n<2?"":e.length<=n?e:`${e.slice(0,n-1)}…`}function vr(e,t){let n=Rt(e.tree,e.value,t),r=n.reduce((o,i)=>Math.max(o,i.level+1),0),s=T("svg",{width:t,height:r*Be,class:"icicle-svg",role:"img","aria-label":"Module time as an icicle chart"});for(let{row:o,x:i,width:l,level:u}of n){let c=u*Be,m=T("g",{class:o.path===e.selected?"icicle-cell selected":"icicle-cell","data-testid":"icicle-cell","data-path":o.path},T("title",{},e.tooltip(o)),T("rect",{x:i.toFixed(2),y:c,width:Math.max(l-1,.5).toFixed(2),height:Be-1,fill:e.color(o)})),d=gr(e.label(o),l);d&&m.append(T("text",{class:"icicle-label",x:(i+3).toFixed(2),y:c+14},d)),m.addEventListener("click",()=>e.onSelect(o)),s.append(m)}return s}function Et(e){let t=a("div",{class:"icicle","data-testid":"module-icicle"}),n=0;return new ResizeObserver(()=>{let r=t.clientWidth;r===0||r===n||(n=r,t.replaceChildren(vr(e,r)))}).observe(t),t}var wr=200,yr=2,xr=16,Ct={forward:"forward",backward:"backward",total:"forward + backward"};function Ge(e){return e.path===""?`(model) ${e.type}`:e.name}function kr(e){return e instanceof DOMException&&e.name==="AbortError"}function Te(e,t){return e[t.phase]}function $t(e,t){let n=Te(e,t);return n?(t.time==="device"?n.gpu_total_ns:n.total_ns)??0:0}function K(e,t,n,r,s=f){let o=i=>Te(i,r)?.[e]??null;return{key:e,label:t,title:n,numeric:!0,value:o,format:i=>s(o(i))}}function Sr(e,t,n,r){let s={key:"name",label:"module",numeric:!1,value:c=>c.path,render:c=>{let m=!t.has(c.path),d=n(c)?a("button",{type:"button",class:"tree-toggle","data-testid":"module-toggle","aria-expanded":String(m),"aria-label":`${m?"Collapse":"Expand"} ${Ge(c)}`},m?"▾":"▸"):a("span",{class:"tree-toggle-space"});return d.addEventListener("click",p=>{p.stopPropagation(),r(c)}),a("span",{class:"tree-cell",style:`padding-left:${c.depth*xr}px`,title:c.path},d,Ge(c))}},o={key:"type",label:"type",numeric:!1,value:c=>c.type},i=K("calls","calls","Calls in this phase",e,w),l={key:"params",label:"params",title:"Parameters in its subtree (shared ones once)",numeric:!0,value:c=>c.params,format:c=>w(c.params)},u=K("pct_of_step","% of step","Its time per covered step over the mean step time (docs/ANALYSIS.md)",e,Z);return e.time==="device"?[s,o,i,K("gpu_total_ns","device total","CUDA-event time of its calls",e),K("gpu_mean_ns","device mean","Per call, in steps with device times",e),K("total_ns","host total","Host time of its calls",e),l]:[s,o,i,K("self_ns","self","Total minus the profiled modules called inside it",e),K("total_ns","total","Time of its calls, nested modules included",e),K("mean_ns","mean","Per call",e),K("p95_ns","p95","Per call (from the recorded samples)",e),u,l]}function Tr(e){let t=e.steps.map(s=>{let o=s.step_time_ns===null?"":`, mean step ${f(s.step_time_ns)}`;return`rank ${s.rank}: ${w(s.steps)} steps${o}`}).join("; "),r=[(e.source==="collector"?"ModuleProfiler records: attribute paths, forward and backward calls.":"From torch.profiler traces: forward calls only (backward runs outside module calls).")+(t?` Covered steps — ${t}.`:"")];if(e.class_names&&r.push(a("strong",{"data-testid":"module-class-names"}," Names are class names with a per-class counter (Linear_3), not attribute paths; the tree comes from how calls nest. Record with collectors.ModuleProfiler for paths.")),e.total_rows>e.rows.length){let s=`${w(e.rows.length)} of ${w(e.total_rows)}`;r.push(` Showing the first ${s} modules.`)}return a("p",{class:"muted","data-testid":"module-note"},...r)}function _r(e){let t=[];return e.backward||t.push("backward not profiled"),e.every_n_steps>1&&t.push(`profiled one step in ${e.every_n_steps}`),e.aggregate_steps>1&&t.push(`records aggregate ${e.aggregate_steps} steps`),e.gpu?.startsWith("off")&&t.push(`no device times: GPU timing ${e.gpu}`),e.max_depth!==null&&t.push(`modules to depth ${e.max_depth}`),e.include.length>0&&t.push(`only ${e.include.join(", ")}`),e.exclude.length>0&&t.push(`excluding ${e.exclude.join(", ")}`),t}function Mr(e){return e.charAt(0).toUpperCase()+e.slice(1)+(e.endsWith(".")?"":".")}function Rr(e){let t=[];for(let n of e){let r=_r(n);if(r.length===0&&n.compiled===null)continue;let s=n.ranks.length===1?"rank":"ranks",o=e.length>1?` (${s} ${n.ranks.join(", ")})`:"",i=r.length>0?`: ${r.join(" · ")}`:"";t.push(`${t.length>0?" ":""}ModuleProfiler${o}${i}.`),n.compiled!==null&&t.push(a("strong",{"data-testid":"module-compiled"},` ${Mr(n.compiled)}`))}return t.length===0?null:a("p",{class:"muted","data-testid":"module-settings"},...t)}function Er(e){return e.length===0?null:a("div",{class:"warnings",role:"status","data-testid":"module-warnings"},a("strong",{},"Some module records could not be read"),a("ul",{},...e.map(t=>a("li",{},t))))}function Lt(e,t,n,r){let s=a("select",{"aria-label":e,"data-testid":t},...n.map(([o,i])=>a("option",{value:o},i)));return s.value=r,s}function $r(e){return e?`inputs ${JSON.stringify(e.inputs)} → output ${JSON.stringify(e.output)}`:null}function Lr(e,t,n){let r=[];for(let l of e.series){let u=D(n.indexOf(l.rank)),c=t==="device"&&l.device_ns?l.device_ns:l.host_ns,m=l.steps.flatMap((d,p)=>{let h=c[p];return h==null?[]:[[d,h]]});m.length!==0&&r.push({label:`rank ${l.rank}${t==="device"&&l.device_ns?" (device)":""}`,color:u,x:m.map(([d])=>d),y:m.map(([,d])=>d)})}if(r.length===0)return a("p",{class:"muted","data-testid":"module-step-chart-empty"},"No per-step times: no step covers this module's calls.");let s=Math.max(...e.series.map(l=>l.bucket)),o=G({series:r,height:220,xLabel:"step",formatX:l=>String(l),formatY:f,yTickFormat:xe,testId:"module-step-chart"});if(s===1)return o;let i=`Each point is the mean of ${s} consecutive steps.`;return a("div",{},o,a("p",{class:"muted"},i))}function At(e,t){let n=Te(e,t);if(!n)return`Not called in ${Ct[t.phase]}.`;let r=[`${w(n.calls)} calls`,`total ${f(n.total_ns)}`,`self ${f(n.self_ns)}`,`mean ${f(n.mean_ns)}`];return n.median_ns!==null&&r.push(`median ${f(n.median_ns)}`),n.std_ns!==null&&r.push(`std ${f(n.std_ns)}`),n.p95_ns!==null&&r.push(`p95 ${f(n.p95_ns)}`),n.gpu_total_ns!==null&&r.push(`device ${f(n.gpu_total_ns)}`),e.params!==null&&r.push(`${w(e.params)} params`),r.join(" · ")}function Ar(){return a("p",{class:"muted"},"No module calls in this run. Wrap the model in collectors.ModuleProfiler(model, timer) for forward and backward time per attribute path; or record traces with Lightning's PyTorchProfiler, or with profile_steps(..., with_stack=True) (torch.profiler's with_stack=True) in eager mode.")}var Pt={id:"modules",label:"Modules",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let s=await yt(e,t,n,r),o=a("section",{class:"panel"},a("h2",{},"Modules")),i=Rr(s.settings);i&&o.append(i);let l=a("div",{class:"overview","data-testid":"modules"},o),u=Er(s.warnings);if(s.rows.length===0)return o.append(Ar()),u&&o.append(u),l;if(!s.rows.some(g=>g.forward||g.backward)){let g=t===null?"Modules are declared, but no calls are recorded yet.":`No module calls recorded on rank ${t}; select another rank.`;return o.append(a("p",{class:"muted","data-testid":"module-note"},g)),l}let c=A(),m=s.phases,d=c.get("modphase"),p={phase:d&&m.includes(d)?d:m.includes("total")?"total":"forward",time:s.device&&c.get("modtime")==="device"?"device":"host"},h=_t(s.rows),b=g=>(h.children.get(g.path)?.length??0)>0,v=new Set(s.rows.length<=wr?[]:s.rows.filter(g=>g.depth>=yr-1&&b(g)).map(g=>g.path)),S=s.steps.map(g=>g.rank),y=[...new Set(s.rows.map(g=>g.type))],k=s.rows.find(g=>g.path===c.get("modpath"))??null,W=Lt("Phase","module-phase",m.map(g=>[g,Ct[g]]),p.phase),J=Lt("Time","module-time",[["host","host time"],["device","device time"]],p.time);W.hidden=m.length<2,J.hidden=!s.device;let _=a("div"),H=a("div",{class:"table-scroll"}),B=a("div",{class:"module-detail","data-testid":"module-detail"}),C=new AbortController;n.addEventListener("abort",()=>C.abort());let ge=()=>{let g=k?.path??null,M="[data-testid=icicle-cell], [data-testid=module-row]";for(let P of l.querySelectorAll(M)){let z=P.getAttribute("data-path")??P.getAttribute("data-name");P.classList.toggle("selected",z===g)}},re=async()=>{if(C.abort(),C=new AbortController,k===null){B.replaceChildren(a("p",{class:"muted"},"Click a module (a row or a cell) to see its time per step."));return}let g=k,M=a("h3",{},`${g.path===""?"(model)":g.path} · ${g.type}`);B.replaceChildren(M,a("p",{},At(g,p)),a("p",{class:"muted"},"Loading steps…"));try{let P=await xt(e,t,g.path,p.phase,C.signal),z=$r(P.shapes);B.replaceChildren(M,a("p",{},At(g,p)),...z?[a("p",{class:"muted"},z)]:[],Lr(P,p.time,S))}catch(P){if(!kr(P)){let z=`Could not load its steps: ${String(P)}`;B.replaceChildren(M,a("p",{role:"alert"},z))}}},ve=g=>{k=g,$({modpath:g.path}),ge(),re()},X=()=>{let g=F({columns:Sr(p,v,b,M=>{v.has(M.path)?v.delete(M.path):v.add(M.path),X()}).filter(M=>!M.numeric||s.rows.some(P=>M.value(P)!==null)),rows:Mt(s.rows,v),testId:"module-table",rowTestId:"module-row",rowName:M=>M.path,rowClass:M=>M.path===k?.path?"selected":void 0});g.addEventListener("click",M=>{let P=M.target instanceof Element?M.target.closest("tr[data-name]"):null,z=P&&s.rows.find(qn=>qn.path===P.getAttribute("data-name"));z&&ve(z)}),H.replaceChildren(g)},se=()=>{_.replaceChildren(Et({tree:h,value:g=>$t(g,p),label:Ge,tooltip:g=>{let M=Te(g,p),P=M?.pct_of_step==null?"":` · ${Z(M.pct_of_step)} of step`;return`${g.path===""?"(model)":g.path} (${g.type}): ${f($t(g,p))}${P}`},color:g=>D(y.indexOf(g.type)),selected:k?.path??null,onSelect:ve})),X(),re()};return W.addEventListener("change",()=>{p.phase=W.value,$({modphase:p.phase}),se()}),J.addEventListener("change",()=>{p.time=J.value==="device"?"device":"host",$({modtime:p.time==="device"?"device":null}),se()}),se(),o.append(Tr(s),...u?[u]:[],a("div",{class:"controls"},W,J),_,B,H),l}};var Cr=1e3,Pr=10;function _e(e,t,n){return{key:e,label:t,title:n,numeric:!0,value:r=>r[e],format:r=>f(r[e])}}var Dr=[{key:"name",label:"operator",numeric:!1,value:e=>e.name},{key:"input_dims",label:"input shapes",numeric:!1,value:e=>e.input_dims},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>w(e.calls)},_e("device_self_ns","device self","Kernels, copies and fills it launched itself"),_e("device_total_ns","device total","Device self of the op and everything nested in it"),_e("host_self_ns","host self","Host time minus its direct children (as key_averages)"),_e("host_total_ns","host total","Host time of its calls")];function Nr(e,t){let n=A(),r=n.get("opsort"),s=n.get("opdir");return e.some(o=>o.key===r)&&(s==="asc"||s==="desc")?{key:r,direction:s}:{key:t?"device_self_ns":"host_self_ns",direction:"desc"}}function Hr(e,t){let n=e.some(r=>r.device_total_ns>0);return Dr.filter(r=>(t||r.key!=="input_dims")&&(n||!r.key.startsWith("device_")))}function Ir(e){let t=e.some(o=>o.device_self_ns>0),n=o=>t?o.device_self_ns:o.host_self_ns,r=[...e].sort((o,i)=>n(i)-n(o)).slice(0,Pr),s=Math.max(1,...r.map(n));return a("div",{class:"top-bars","data-testid":"operator-bars"},a("p",{class:"muted"},`Top ${r.length} by ${t?"device":"host"} self time`),...r.map(o=>a("div",{class:"top-bar-row"},a("span",{class:"top-bar-label",title:o.name},o.name),a("span",{class:"top-bar-track"},a("span",{class:"top-bar",style:`width: ${(n(o)/s*100).toFixed(2)}%`})),a("span",{class:"top-bar-value"},f(n(o))))))}var Dt={id:"operators",label:"Operators",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,params:s}){let o=a("input",{type:"search",class:"search-input",placeholder:"Filter operators","aria-label":"Filter operators","data-testid":"operator-filter",value:String(s.q??A().get("opq")??"")}),i=a("select",{"aria-label":"Group by","data-testid":"operator-group"},a("option",{value:"name"},"by name"),a("option",{value:"input_dims"},"by name and input shapes"));i.value=A().get("opgroup")==="input_dims"?"input_dims":"name";let l=a("p",{class:"muted","data-testid":"operator-caption"}),u=a("div"),c=a("div",{class:"table-scroll"}),m=[],d=()=>{let b=o.value.trim().toLowerCase(),v=m.filter(k=>b===""||k.name.toLowerCase().includes(b)),S=Hr(m,i.value==="input_dims"),y=S.some(k=>k.key==="device_self_ns");u.replaceChildren(Ir(v)),c.replaceChildren(F({columns:S,rows:v,testId:"operator-table",rowTestId:"operator-row",rowName:k=>k.name,sort:Nr(S,y),onSortChange:k=>$({opsort:k.key,opdir:k.direction})})),$({opq:b===""?null:o.value})},p=new AbortController,h=async b=>{p.abort(),p=new AbortController;let v=i.value==="input_dims"?"input_dims":"name",S=b?n:p.signal,y=await ke(e,t,v,Cr,S,r);m=y.rows,l.textContent=y.total_rows>y.rows.length?`Showing ${y.rows.length} of ${w(y.total_rows)} operators.`:`${w(y.total_rows)} operators.`,d()};return o.addEventListener("input",d),i.addEventListener("change",()=>{$({opgroup:i.value==="input_dims"?"input_dims":null}),h(!1).catch(b=>{b instanceof DOMException&&b.name==="AbortError"||(l.textContent=`Could not load operators: ${String(b)}`)})}),await h(!0),a("div",{class:"overview","data-testid":"operators"},a("section",{class:"panel"},a("h2",{},"Operators"),a("div",{class:"controls"},o,i),l,u,c))}};function Nt(e,t,n,r){let s=new URLSearchParams({baseline:e,candidate:t});return R(`./compare?${s}`,n,r)}function ce(e){return e===null||!Number.isFinite(e)?"—":e===0?"±0":`${e>0?"+":"−"}${f(Math.abs(e))}`}function Ht(e){if(!(e===null||e===0))return e>0?"delta-worse":"delta-better"}var Me=720,Re=22,ze=150,Fr=90,Or={breakdown:"the traced steps' breakdown categories",spans:"MyTimer's top-level spans"};function It(e,t){let n=t+Re/2;return{class:"chart-label",x:e,y:n,"text-anchor":"end","dominant-baseline":"middle"}}function Ue(e,t){return e.reduce((n,r)=>n+r[t],0)}function Ft(e,t){if(e.length===0)return a("p",{class:"muted","data-testid":"no-category-deltas"},"No categories to compare: the runs need traced steps, or MyTimer spans, of the same kind.");let n=[...e].sort((u,c)=>Math.abs(c.delta_ns)-Math.abs(u.delta_ns)),r=Math.max(1,...n.map(u=>Math.abs(u.delta_ns))),s=(Me-ze-Fr)/2,o=ze+s,i=n.length*Re+4,l=T("svg",{class:"delta-chart",width:Me,height:i,viewBox:`0 0 ${Me} ${i}`,role:"img","aria-label":"Per-step time by category: candidate minus baseline"});return n.forEach((u,c)=>{let m=c*Re+2,d=Math.abs(u.delta_ns)/r*s,p=u.delta_ns<0?o-d:o,h=u.delta_ns>0?"slower":u.delta_ns<0?"faster":"same";l.append(T("g",{"data-testid":"category-delta","data-category":u.category,"data-value":u.delta_ns},T("title",{},`${u.category}: ${f(u.baseline_ns)} → ${f(u.candidate_ns)} per step`),T("text",It(ze-8,m),u.category),T("rect",{class:`delta-bar delta-${h}`,x:p,y:m+3,width:Math.max(1,d),height:Re-6}),T("text",It(Me-4,m),ce(u.delta_ns))))}),l.append(T("line",{class:"chart-axis",x1:o,x2:o,y1:0,y2:i})),a("div",{class:"table-scroll","data-testid":"category-deltas"},a("p",{class:"muted"},`Mean time per step by ${Or[t??""]??"category"}, candidate minus baseline: right of the line is slower, left is faster.`),l,a("p",{class:"muted","data-testid":"category-totals"},`All categories: ${f(Ue(n,"baseline_ns"))} → ${f(Ue(n,"candidate_ns"))} per step (${ce(Ue(n,"delta_ns"))}).`))}var Wr={baseline_ns:"new",candidate_ns:"vanished"};function Ot(e){return e.baseline_ns?e.delta_ns/e.baseline_ns:null}function Br(e){let t=(s,o)=>({key:s,label:o,numeric:!0,value:i=>i[s],format:i=>i.status===Wr[s]?"—":f(i[s])}),n=e.calls,r=n?[{key:"baseline_calls",label:"baseline calls",numeric:!0,value:s=>n(s)[0],format:s=>w(n(s)[0])},{key:"candidate_calls",label:"candidate calls",numeric:!0,value:s=>n(s)[1],format:s=>w(n(s)[1])}]:[];return[{key:"name",label:e.noun,numeric:!1,value:e.name},...e.extra??[],{key:"status",label:"status",numeric:!1,value:s=>s.status},t("baseline_ns","baseline"),t("candidate_ns","candidate"),{key:"delta_ns",label:"Δ",title:"Candidate minus baseline (+ is slower)",numeric:!0,value:s=>s.delta_ns,render:s=>a("span",{class:Ht(s.delta_ns)},ce(s.delta_ns))},{key:"delta_pct",label:"Δ %",title:"The delta as a share of the baseline's time",numeric:!0,value:Ot,format:s=>{let o=Ot(s);return o===null?"—":`${o>0?"+":""}${(o*100).toFixed(1)} %`}},...r]}function Gr(e,t){let n=A(),r=n.get(`${e}sort`),s=n.get(`${e}dir`);return t.some(o=>o.key===r)&&(s==="asc"||s==="desc")?{key:r,direction:s}:{key:"delta_ns",direction:"desc"}}function Ee(e){if(e.rows.length===0)return a("p",{class:"muted"},`No ${e.noun}s in either run.`);let t=Br(e),n=a("input",{type:"search",class:"search-input",placeholder:`Filter ${e.noun}s`,"aria-label":`Filter ${e.noun}s`,"data-testid":`${e.prefix}-delta-filter`}),r=a("p",{class:"muted"}),s=a("div",{class:"table-scroll"}),o=()=>{let i=n.value.trim().toLowerCase(),l=e.rows.filter(m=>i===""||e.name(m).toLowerCase().includes(i)),u=e.total>e.rows.length?`the ${w(e.rows.length)} largest changes of ${w(e.total)} ${e.noun}s`:`${w(e.rows.length)} ${e.noun}s`,c=l.length===e.rows.length?"":`${w(l.length)} match the filter, of `;r.textContent=`${e.per}; ${c}${u}.`,s.replaceChildren(F({columns:t,rows:l,testId:`${e.prefix}-delta-table`,rowTestId:`${e.prefix}-delta-row`,rowName:e.name,sort:Gr(e.prefix,t),onSortChange:m=>$({[`${e.prefix}sort`]:m.key,[`${e.prefix}dir`]:m.direction})}))};return n.addEventListener("input",o),o(),a("div",{},a("div",{class:"controls"},n),r,s)}var Xe=e=>`${e.toFixed(1)} %`,Wt={peak_bytes:{label:"peak allocated",format:x},reserved_bytes:{label:"peak reserved",format:x},slope_bytes_per_step:{label:"growth per step",format:e=>`${x(e)}/step`},trace_utilization:{label:"GPU busy in the traces",format:Xe},tracker_utilization:{label:"GPU utilization (NVML)",format:Xe},spread:{label:"straggler spread (slowest − fastest rank, of the median)",format:e=>Xe(e*100)}};function zr(e,t){return t===null?"—":t===0?"±0":`${t>0?"+":"−"}${e(Math.abs(t))}`}function Ke(e,t,n,r){let s=o=>o===null?"—":n(o);return a("tr",{"data-name":e},a("td",{},t),a("td",{class:"numeric"},s(r.baseline)),a("td",{class:"numeric"},s(r.candidate)),a("td",{class:"numeric","data-column":"delta"},zr(n,r.delta)))}function Bt(e,t){return a("div",{class:"table-scroll"},a("table",{class:"data-table","data-testid":e},a("thead",{},a("tr",{},a("th",{},"metric"),a("th",{class:"numeric"},"baseline"),a("th",{class:"numeric"},"candidate"),a("th",{class:"numeric"},"Δ"))),a("tbody",{},...t)))}function Ve(e,t,n){let r=Object.entries(e).filter(([,s])=>s.baseline!==null||s.candidate!==null).map(([s,o])=>{let i=Wt[s]??{label:s.replaceAll("_"," "),format:String};return Ke(s,i.label,i.format,o)});return r.length===0?a("p",{class:"muted","data-testid":`${t}-none`},n):Bt(`${t}-table`,r)}function Gt(e){let t=Wt.spread,n=e.ranks.map(i=>Ke(`rank ${i.rank}`,`rank ${i.rank} median step`,f,i));if(t&&(e.spread.baseline!==null||e.spread.candidate!==null)&&n.unshift(Ke("spread",t.label,t.format,e.spread)),n.length===0)return a("p",{class:"muted","data-testid":"balance-none"},"Both runs have one rank (or no matched ranks): nothing to balance.");let{baseline:r,candidate:s}=e.slowest_rank,o=r===null&&s===null?null:a("p",{class:"muted"},`Slowest rank: ${r??"—"} in the baseline, ${s??"—"} in the candidate.`);return a("div",{},Bt("balance-table",n),o)}function V(e,t,...n){return a("section",{class:"panel","data-testid":t},a("h2",{},e),...n)}function $e(e,t){return a("section",{class:"notice","data-testid":e,role:"status"},t)}function Ur(e,t,n){let r=document.querySelector('[data-testid="run-select"]');r&&r.value!==e&&(r.value=e,r.dispatchEvent(new Event("change"))),n("timeline",{step:t})}function Xr(e){let t=e.verdict.replace(" ","-"),n=i=>{let l=e[i];return a("tr",{"data-testid":`step-stats-${i}`},a("th",{},i),a("td",{class:"numeric"},w(l.steps)),a("td",{class:"numeric"},f(l.median_ns)),a("td",{class:"numeric"},f(l.p95_ns)))},[r,s]=e.ci,o=e.ratio===null||r===null||s===null?"One of the runs has fewer than two steps: no ratio to test.":`median(candidate) / median(baseline) = ${e.ratio.toFixed(3)}, ${Math.round((1-e.alpha)*100)} % bootstrap interval [${r.toFixed(3)}, ${s.toFixed(3)}].`;return a("section",{class:"panel"},a("p",{class:`compare-headline verdict-${t}`,"data-testid":"compare-headline","data-verdict":e.verdict},a("span",{class:`verdict-badge verdict-${t}`},e.verdict)," ",e.headline),a("p",{class:"muted","data-testid":"compare-ratio"},o),a("table",{class:"data-table"},a("thead",{},a("tr",{},a("th",{},"run"),a("th",{class:"numeric"},"steps"),a("th",{class:"numeric"},"median step"),a("th",{class:"numeric"},"p95 step"))),a("tbody",{},n("baseline"),n("candidate"))))}function Kr(e,t){let n=(s,o)=>{if(s===null)return null;let{run:i,step:l}=s,u=a("button",{type:"button",class:"link-button","data-testid":`timeline-link-${o}`,"data-run":i,"data-step":l},`${o} ${i}, step ${l}`);return u.addEventListener("click",()=>Ur(i,l,t)),a("li",{},u)},r=[n(e.links.baseline_step,"baseline"),n(e.links.candidate_step,"candidate")];return r.every(s=>s===null)?null:V("Open in the Timeline","timeline-links",a("p",{class:"muted"},"A typical step of each run (nearest its median step time):"),a("ul",{class:"top-list"},...r))}function qe(e,t,n){return e.length===0?a("p",{class:"muted","data-testid":t},n):a("ul",{class:"findings","data-testid":t},...e.map(r=>a("li",{class:`finding severity-${r.severity}`,"data-testid":"compare-finding","data-kind":r.kind},a("div",{class:"finding-head"},a("span",{class:`severity-badge severity-${r.severity}`},r.severity),a("strong",{class:"finding-title"},r.title)))))}function Vr(e){let{appeared:t,disappeared:n,kept:r}=e.findings;return V("Findings","compare-findings",a("h3",{},`Appeared in the candidate (${t.length})`),qe(t,"findings-appeared","None: the candidate has no finding the baseline lacks."),a("h3",{},`Gone from the candidate (${n.length})`),qe(n,"findings-disappeared","None: every finding of the baseline is still there."),a("h3",{},`In both runs (${r.length})`),qe(r,"findings-kept","None."))}function zt({baseline:e,candidate:t}){return`Time per traced step and rank (the traces cover ${w(e)} and ${w(t)} such windows; a trace without steps counts whole)`}function qr(e,t){return a("div",{"data-testid":"compare-result"},e.ranks.note?$e("compare-ranks-note",e.ranks.note):null,Xr(e.step_time),Kr(e,t),V("Where the step time changed","compare-categories",Ft(e.categories,e.category_source)),Vr(e),V("Operators","compare-operators",Ee({prefix:"co",noun:"operator",per:zt(e.per_step),rows:e.operators,total:e.operators_total,name:n=>n.name,calls:n=>[n.baseline_calls,n.candidate_calls]})),V("Kernels","compare-kernels",Ee({prefix:"ck",noun:"kernel",per:zt(e.per_step),rows:e.kernels,total:e.kernels_total,name:n=>n.name,calls:n=>[n.baseline_calls,n.candidate_calls]})),V("Modules","compare-modules",Ee({prefix:"cm",noun:"module",per:"Time per step and rank",rows:e.modules,total:e.modules_total,name:n=>n.path||"(model)",extra:[{key:"phase",label:"phase",numeric:!1,value:n=>n.phase}]})),V("Memory","compare-memory",Ve(e.memory,"memory","Neither run sampled memory (MemorySampler).")),V("GPU","compare-gpu",Ve(e.gpu,"gpu","Neither run has GPU kernels in traces or GpuTracker samples.")),V("Rank balance","compare-balance",Gt(e.balance)))}function Ut(e,t,n){let r=t.includes(n)?t:[...t,n];e.replaceChildren(...r.map(s=>t.includes(s)?a("option",{value:s},s):a("option",{value:s,disabled:!0},`${s} (missing)`))),e.value=n}function Yr(e,t,n){if(e.length<2){let r=e.length===1?"only one":"none";return $e("compare-problem",`Compare needs two runs; this logdir holds ${r}.`)}for(let[r,s]of[["baseline",t],["candidate",n]])if(!e.includes(s))return $e("compare-problem",`The ${r} run “${s}” is not in this logdir; pick another.`);return t===n?$e("compare-problem",`Baseline and candidate are the same run (“${t}”): pick two different runs.`):null}var Xt={id:"compare",label:"Compare",usesRankSelect:!1,async show({run:e,signal:t,onProgress:n,navigate:r}){let s=(await ye(t)).map(v=>v.name),o=A(),i=o.get("cand")??e,l=o.get("base")??s.find(v=>v!==i)??i,u=a("select",{"data-testid":"compare-baseline","aria-label":"Baseline run"}),c=a("select",{"data-testid":"compare-candidate","aria-label":"Candidate run"}),m=a("button",{type:"button",class:"compare-swap","data-testid":"compare-swap"},"⇄ swap"),d=a("div",{"data-testid":"compare-body"}),p=new AbortController,h=async v=>{p.abort(),p=new AbortController,Ut(u,s,l),Ut(c,s,i);let S=AbortSignal.any([t,p.signal]);$({base:l,cand:i});let y=Yr(s,l,i);if(y){d.replaceChildren(y);return}d.setAttribute("aria-busy","true");try{let k=await Nt(l,i,S,v);S.aborted||d.replaceChildren(qr(k,r))}catch(k){if(S.aborted)return;let W=k instanceof I?`${k.message} (${k.code})`:String(k);d.replaceChildren(a("div",{class:"error","data-testid":"error",role:"alert"},a("strong",{},"Could not compare the runs"),a("p",{},W)))}finally{S.aborted||d.removeAttribute("aria-busy")}},b=v=>d.replaceChildren(a("p",{class:"muted"},`Reading run files… ${Math.round(v.fraction*100)} %`));return u.addEventListener("change",()=>{l=u.value,h(b)}),c.addEventListener("change",()=>{i=c.value,h(b)}),m.addEventListener("click",()=>{[l,i]=[i,l],h(b)}),await h(n),a("div",{class:"compare","data-testid":"compare"},a("div",{class:"compare-pickers"},a("label",{},"Baseline ",u),m,a("label",{},"Candidate ",c)),d)}};function Kt(e,t,n,r){return R(`./memory?${O(e,{rank:t})}`,n,r)}function Vt(e,t,n,r){return R(`./gpu?${O(e,{rank:t})}`,n,r)}function qt(e,t,n,r){return R(`./snapshot?${O(e,{file:t})}`,n,r)}function Yt(e,t,n,r,s,o,i){let l=O(e,{file:t,device:n,start:r,end:s,width_px:o});return R(`./snapshot/tile?${l}`,i)}function jt(e,t,n,r,s){return R(`./snapshot/allocation?${O(e,{file:t,device:n,index:r})}`,s)}var jr=[{value:"util",title:"GPU utilization (share of time a kernel ran, NVML)",testId:"gpu-util-chart",format:e=>`${e.toFixed(1)} %`,ticks:oe(" %")},{value:"mem_used",title:"GPU memory used (dashed: the device's total)",testId:"gpu-memory-chart",format:x,ticks:ae},{value:"power_w",title:"Power",testId:"gpu-power-chart",format:e=>`${e.toFixed(1)} W`,ticks:oe(" W")},{value:"sm_clock_mhz",title:"SM clock",testId:"gpu-clock-chart",format:e=>`${e.toFixed(0)} MHz`,ticks:oe(" MHz")},{value:"temp_c",title:"Temperature",testId:"gpu-temp-chart",format:e=>`${e.toFixed(0)} °C`,ticks:oe(" °C")}];function Ye(e,t){let n={x:[],y:[]};return t?.forEach((r,s)=>{let o=e[s];r!==null&&o!==void 0&&(n.x.push(o),n.y.push(r))}),n}function Jt(e,t,...n){return a("section",{class:"panel","data-testid":t},a("h2",{},e),...n)}function Zt(e){let t=e.find(r=>r.steps.start_ns.length>0);if(!t)return{marks:[],label:""};let n=t.steps.every>1?`every ${t.steps.every}th `:"";return{marks:t.steps.start_ns,label:`${n}step start (rank ${t.rank})`}}function Jr(e,t,n){let r=`GPU ${t.index}${t.name?` ${t.name}`:""}`;return n?`rank ${e.rank} ${r}`:r}function Zr(e,t){let n=t.length>1,r=[],s=0;for(let l of t)for(let u of l.devices){let{x:c,y:m}=Ye(u.t_ns,u[e.value]);if(c.length===0)continue;let d=Jr(l,u,n),p=D(s);if(s+=1,r.push({label:d,color:p,x:c,y:m}),e.value==="mem_used"){let h=Ye(u.t_ns,u.mem_total);h.x.length&&r.push({...h,label:`${d} total`,color:p,dashed:!0})}}if(r.length===0)return null;let{marks:o,label:i}=Zt(t);return Jt(e.title,e.testId,G({series:r,height:200,xLabel:"time since the first sample",formatX:f,formatY:e.format,yTickFormat:e.ticks,testId:`${e.testId}-plot`,markers:o,markerLabel:i}))}function Qr(e){let t=e.length>1,{marks:n,label:r}=Zt(e),s=(o,i,l,u,c)=>{let m=e.map((d,p)=>({rank:d,i:p,...Ye(d.t_ns,d[o])})).filter(d=>d.x.length>0).map(d=>({label:t?`rank ${d.rank.rank}`:"this process",color:D(d.i),x:d.x,y:d.y}));return m.length===0?null:Jt(i,l,G({series:m,height:180,xLabel:"time since the first sample",formatX:f,formatY:u,yTickFormat:c,testId:`${l}-plot`,markers:n,markerLabel:r}))};return[s("cpu_pct","Process CPU use (% of one core; DataLoader workers not included)","cpu-chart",o=>`${o.toFixed(1)} %`,oe(" %")),s("rss","Process resident memory (RSS)","cpu-rss-chart",x,ae)].filter(o=>o!==null)}function es(e){if(e.gpu_reason!==null)return a("section",{class:"notice","data-testid":"gpu-reason",role:"status"},a("strong",{},"No GPU data: "),`${e.gpu_reason}.`,e.ranks.length?" The process side is shown below.":"");let t=e.ranks.filter(n=>n.gpu_reason!==null);return t.length===0?null:a("section",{class:"notice","data-testid":"gpu-rank-reasons",role:"status"},a("strong",{},"Some ranks have no GPU samples: "),t.map(n=>`rank ${n.rank}: ${n.gpu_reason}`).join("; "))}function ts(e){let t=e.ranks,n=jr.map(s=>Zr(s,t)).filter(s=>s!==null),r=t.length===0?a("p",{class:"muted","data-testid":"no-system"},"Start collectors.GpuTracker(timer.writer) in the training processes to sample the GPUs and the process about once a second."):null;return a("div",{class:"gpu","data-testid":"gpu"},es(e),...n,...Qr(t),r)}var Qt={id:"gpu",label:"GPU",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){return ts(await Vt(e,t,n,r))}};var ns={overview:"Overview",timeline:"Timeline",operators:"Operators",kernels:"Kernels",memory:"Memory",gpu:"GPU"};function rs(e,t){return typeof e!="number"?String(e):t==="ns"?f(e):t==="fraction"?`${(e*100).toFixed(1)} %`:t==="x"?`${e.toFixed(2)}×`:t==="%"?`${e.toFixed(1)} %`:t==="bytes"?x(e):t==="bytes/step"?`${x(e)} per step`:String(e)}function ss(e,t){let n=e.view.tab,r=a("button",{type:"button",class:"link-button","data-testid":"finding-link","data-tab":n},`Open in ${ns[n]??n}`);r.addEventListener("click",()=>t(n,e.view.params));let s=Object.entries(e.evidence).map(([o,i])=>a("li",{},`${o.replaceAll("_"," ")}: ${rs(i.value,i.unit)}`));return a("li",{class:`finding severity-${e.severity}`,"data-testid":"finding","data-kind":e.kind,"data-severity":e.severity},a("div",{class:"finding-head"},a("span",{class:`severity-badge severity-${e.severity}`},e.severity),a("strong",{class:"finding-title"},e.title)),a("ul",{class:"finding-evidence"},...s),a("p",{class:"finding-fix"},e.recommendation),r)}function Le(e,t){let n=e.length===0?a("p",{class:"muted","data-testid":"no-findings"},"No findings: nothing in this run crossed a threshold."):a("ol",{class:"findings","data-testid":"findings"},...e.map(r=>ss(r,t)));return a("section",{class:"panel"},a("h2",{},"Findings"),n)}function Ae(e){let t=2166136261;for(let n=0;n<e.length;n+=1)t^=e.charCodeAt(n),t=Math.imul(t,16777619);return(t>>>0)%40}function Ce(e){return Array.from({length:40},(t,n)=>{let r=Math.round(n*137.508%360),s=(e?36:72)+n%3*4;return`hsl(${r} ${e?40:55}% ${s}%)`})}function ue(){let e=getComputedStyle(document.documentElement),t=r=>e.getPropertyValue(r).trim(),n=document.documentElement.dataset.theme==="dark";return{dark:n,background:t("--bg"),surface:t("--surface"),text:t("--fg"),mutedText:t("--fg-muted"),border:t("--border"),grid:t("--grid"),accent:t("--accent"),boxText:n?"#f5f5f5":"#212121",boxes:Ce(n)}}function je(e){return e.end-e.start}function j(e,t){let n=je(t),r=Math.min(n,Math.max(200,je(e))),s=Math.min(Math.max(e.start,t.start),t.end-r);return{start:s,end:s+r}}function Pe(e,t,n,r){let s=t-(t-e.start)*n,o=t+(e.end-t)*n;return j({start:s,end:o},r)}function me(e,t,n){return j({start:e.start+t,end:e.end+t},n)}function ee(e,t,n,r){let s=Math.max(t-e,200)*n;return j({start:e-s,end:t+s},r)}function en(e,t,n,r){if(t>=e.start&&n<=e.end)return e;let s=je(e);if(n-t>s*.8)return ee(t,n,.1,r);let o=(t+n)/2;return j({start:o-s/2,end:o+s/2},r)}function tn(e,t){let n=Math.max(t-e,200)*.02;return{start:e-n,end:t+n}}var pe=280,nn=18,as=3,os=.0015,is=60;function ls(e){let{bands:t,steps:n}=e,r=[],s=0;return t.id.forEach((o,i)=>{let l=t.start[i]??0,u=t.y0[i]??0,c=t.steps[i]??0;for(let m=0;m<c;m+=1,s+=1){let d=e.start+((n.px[s]??0)+1)*e.ns_per_px;r.push({band:i,t0:l,t1:d,y:u}),l=d,u=n.y[s]??u}r.push({band:i,t0:l,t1:t.end[i]??l,y:u})}),r}function sn(e){return`${e.filename}:${e.line} (${e.name})`}function rn(e,t){return e.length===0?a("p",{class:"muted"},"No stack recorded."):a("ol",{class:"stack-frames","data-testid":t},...e.map(n=>a("li",{},sn(n))))}var De=class{constructor(t,n,r,s,o){this.run=t;this.file=n;this.device=r;this.timeUnit=s;this.signal=o;let i=r.time?Math.max(r.time.end,r.time.start+1):1;this.bounds={start:r.time?.start??0,end:i},this.window=this.bounds;let l=a("button",{type:"button","data-testid":"snapshot-reset"},"Reset zoom");l.addEventListener("click",()=>this.show(this.bounds)),this.element=a("div",{class:"snapshot-viewer","data-testid":"snapshot-viewer"},a("div",{class:"snapshot-toolbar"},l,this.status,a("span",{class:"muted hint"},"Wheel: zoom · drag: pan · click a block: details")),this.stage,this.hover,this.details),this.attachInput(),new ResizeObserver(()=>{let u=Math.floor(this.stage.clientWidth);u===0||u===this.width||(this.width=u,this.draw(),this.schedule())}).observe(this.stage),o.addEventListener("abort",()=>this.fetching.abort(),{once:!0})}run;file;device;timeUnit;signal;element;canvas=a("canvas",{class:"snapshot-canvas","data-testid":"snapshot-canvas",tabindex:0,"aria-label":"Live allocations over time; wheel to zoom, drag to pan, click for details"});stage=a("div",{class:"snapshot-stage"},this.canvas);status=a("span",{class:"muted","data-testid":"snapshot-status"});hover=a("span",{class:"snapshot-hover","data-testid":"snapshot-hover"});details=a("div",{class:"snapshot-details","data-testid":"snapshot-allocation"},a("p",{class:"muted"},"Click a block for its size, lifetime and stack."));bounds;window;drawn=null;width=0;fetching=new AbortController;detailsFetch=new AbortController;timer;formatTime(t){return this.timeUnit==="ns"?Q(t):`entry ${Math.round(t)}`}formatSpan(t){return this.timeUnit==="ns"?f(t):`${Math.round(t)} entries`}show(t){this.window=j(t,this.bounds),this.draw(),this.schedule()}schedule(){clearTimeout(this.timer),this.timer=setTimeout(()=>{this.load()},is)}async load(){if(this.width===0||this.signal.aborted)return;this.fetching.abort(),this.fetching=new AbortController;let{start:t,end:n}=this.window,r=Math.floor(t),s=Math.max(Math.ceil(n),r+1);try{let o=await Yt(this.run,this.file,this.device.device,r,s,this.width,this.fetching.signal),i=Math.max(1,...o.pixels.total_max);this.drawn={tile:o,pieces:ls(o),yMax:i},this.status.textContent=`${o.drawn} of ${o.visible} allocations drawn`+(o.merged?` (${o.merged} too small or too short: grey)`:"")+` · ${this.formatTime(r)} – ${this.formatTime(s)}`,this.draw()}catch(o){if(o instanceof DOMException&&o.name==="AbortError")return;this.status.textContent=`Could not load this window: ${String(o)}`}}x(t){return(t-this.window.start)/(this.window.end-this.window.start)*this.width}draw(){let t=window.devicePixelRatio||1,n=this.width;this.canvas.width=Math.round(n*t),this.canvas.height=Math.round(pe*t),this.canvas.style.width=`${n}px`,this.canvas.style.height=`${pe}px`;let r=this.canvas.getContext("2d");if(!r||n===0)return;let s=ue(),o=Ce(s.dark);r.setTransform(t,0,0,t,0,0),r.fillStyle=s.background,r.fillRect(0,0,n,pe);let i=pe-nn,l=this.drawn;if(l){let{tile:m,pieces:d,yMax:p}=l,h=(i-12)/p;r.fillStyle=s.grid,m.pixels.total_max.forEach((b,v)=>{let S=m.pixels.drawn_max[v]??0;if(b<=S)return;let y=this.x(m.start+v*m.ns_per_px),k=this.x(m.start+(v+1)*m.ns_per_px);r.fillRect(y,i-b*h,Math.max(1,k-y),(b-S)*h)});for(let b of d){let v=m.bands.size[b.band]??0,S=m.labels[m.bands.label[b.band]??0]??"",y=Math.max(-1,this.x(b.t0)),k=Math.min(n+1,this.x(b.t1));if(k<=y)continue;r.fillStyle=o[Ae(S)]??s.accent;let W=i-(b.y+v)*h;r.fillRect(y,W,Math.max(k-y,.5),Math.max(v*h,.5))}r.fillStyle=s.mutedText,r.font="11px sans-serif",r.textBaseline="top",r.fillText(x(p),4,2)}r.strokeStyle=s.border,r.beginPath(),r.moveTo(0,i+.5),r.lineTo(n,i+.5),r.stroke(),r.fillStyle=s.mutedText,r.font="11px sans-serif",r.textBaseline="top",r.fillText(this.formatTime(this.window.start),4,i+4);let u=this.formatTime(this.window.end);r.fillText(u,n-r.measureText(u).width-4,i+4);let c=`${this.formatSpan(this.window.end-this.window.start)} shown`;r.fillText(c,(n-r.measureText(c).width)/2,i+4)}bandAt(t,n){let r=this.drawn;if(!r)return null;let s=pe-nn,o=(s-12)/r.yMax,i=this.window.start+t/this.width*(this.window.end-this.window.start),l=(s-n)/o,u=(this.window.end-this.window.start)/this.width;for(let c of r.pieces){let m=r.tile.bands.size[c.band]??0;if(!(i<c.t0-u||i>=c.t1+u)&&l>=c.y&&l<c.y+Math.max(m,2/o))return c.band}return null}describe(t){let n=this.drawn?.tile;if(!n)return"";let r=n.labels[n.bands.label[t]??0]??"";return`${x(n.bands.size[t]??0)} · ${r}`}async select(t){let r=this.drawn?.tile?.bands.id[t];if(r!==void 0){this.detailsFetch.abort(),this.detailsFetch=new AbortController,this.details.replaceChildren(a("p",{class:"muted"},`Loading allocation ${r}…`));try{let s=await jt(this.run,this.file,this.device.device,r,this.detailsFetch.signal);this.details.replaceChildren(this.allocationView(s))}catch(s){if(s instanceof DOMException&&s.name==="AbortError")return;this.details.replaceChildren(a("p",{role:"alert"},String(s)))}}}allocationView(t){let n=(r,s)=>a("tr",{},a("th",{},r),a("td",{"data-field":r},s));return a("div",{},a("h3",{},`Allocation ${t.index}: ${x(t.size)}`),a("table",{class:"details-table"},a("tbody",{},n("size",`${x(t.size)} (${t.size.toLocaleString("en-US")} B)`),n("address",`0x${t.addr.toString(16)}`),n("allocated",t.allocated_before_trace?"before the trace began":this.formatTime(t.t_alloc)),n("freed",t.live_at_snapshot?"still live at the snapshot":this.formatTime(t.t_free)),n("lifetime",`${this.formatSpan(t.lifetime)}${t.allocated_before_trace||t.live_at_snapshot?" or more":""}`),n("stream",String(t.stream)),n("first user frame",t.first_user_frame?sn(t.first_user_frame):"—"))),a("h4",{},"Allocated at"),rn(t.frames,"allocation-frames"),t.free_frames.length?a("h4",{},"Freed at"):null,t.free_frames.length?rn(t.free_frames,"free-frames"):null)}attachInput(){let t=this.canvas;t.addEventListener("wheel",r=>{r.preventDefault();let s=this.window.end-this.window.start;if(Math.abs(r.deltaX)>Math.abs(r.deltaY)){this.show(me(this.window,r.deltaX/this.width*s,this.bounds));return}let o=this.window.start+r.offsetX/this.width*s,i=Math.exp(r.deltaY*os);this.show(Pe(this.window,o,i,this.bounds))},{passive:!1});let n=null;t.addEventListener("pointerdown",r=>{r.button===0&&(t.setPointerCapture(r.pointerId),n={startX:r.offsetX,lastX:r.offsetX,moved:!1})}),t.addEventListener("pointermove",r=>{if(n===null){let s=this.bandAt(r.offsetX,r.offsetY);this.hover.textContent=s===null?"":this.describe(s);return}if(Math.abs(r.offsetX-n.startX)>as&&(n.moved=!0),n.moved){let s=this.window.end-this.window.start,o=(n.lastX-r.offsetX)/this.width*s;n.lastX=r.offsetX,this.show(me(this.window,o,this.bounds))}}),t.addEventListener("pointerup",r=>{if(n!==null&&!n.moved){let s=this.bandAt(r.offsetX,r.offsetY);s!==null&&this.select(s)}n=null}),t.addEventListener("pointercancel",()=>{n=null}),t.addEventListener("pointerleave",()=>{this.hover.textContent=""})}};var ds=["allocated","reserved","peak","rss"],cs={allocated:"allocated",reserved:"reserved",peak:"peak allocated",rss:"RSS"},us="#d62728";function he(e,t,...n){return a("section",{class:"panel","data-testid":t},a("h2",{},e),...n)}function ms(e){return e instanceof DOMException&&e.name==="AbortError"}function ps(e,t){let n={x:[],y:[]};return t.forEach((r,s)=>{let o=e[s];r!==null&&o!==void 0&&(n.x.push(o),n.y.push(r))}),n}function an(e,t){let n=e.length>1,r=[],s=0;for(let o of e){for(let l of ds){let u=o[l];if(!u)continue;let{x:c,y:m}=ps(o[t],u);if(c.length===0)continue;let d=`${n?`rank ${o.rank} `:""}${cs[l]}`;r.push({label:d,color:D(s),x:c,y:m}),s+=1}let i=o.trend;t==="steps"&&i?.leak&&r.push({label:`${n?`rank ${o.rank} `:""}leak trend (${x(i.slope)}/step)`,color:us,x:[i.first_step,i.last_step],y:[i.start_level,i.end_level],dashed:!0})}return r}function hs(e){let t=e.ranks;if(t.length===0)return[a("p",{class:"muted","data-testid":"no-memory"},"No MemorySampler records in this run. Wrap the training loop in “with MemorySampler(timer):” (from collectors) to record memory every step.")];let n=Math.max(...t.map(i=>i.bucket)),r=n>1?a("p",{class:"muted"},`Each point is the mean of ${n} consecutive steps (peak: their maximum).`):null,s=G({series:an(t,"steps"),height:280,xLabel:"step",formatX:i=>String(i),formatY:x,yTickFormat:ae,testId:"memory-step-chart"}),o=G({series:an(t,"t_ns"),height:220,xLabel:"time since the first sample",formatX:f,formatY:x,yTickFormat:ae,testId:"memory-time-chart"});return[he("Memory per step","memory-steps",s,r),he("Memory over time","memory-time",o)]}var fs=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"device",label:"device",numeric:!1,value:e=>e.device},{key:"device_total",label:"device memory",numeric:!0,value:e=>e.device_total,format:e=>x(e.device_total)},{key:"peak",label:"peak allocated",title:"The highest peak (else allocated) any step recorded",numeric:!0,value:e=>e.max_peak?.bytes??null,format:e=>x(e.max_peak?.bytes)},{key:"peak_share",label:"% of device",numeric:!0,value:e=>(e.max_peak?.share??null)===null?null:(e.max_peak?.share??0)*100,format:e=>Z(e.max_peak?.share===null||!e.max_peak?null:e.max_peak.share*100)},{key:"unused",label:"reserved above peak",title:"Median over steps after warm-up of reserved memory the peak never used (fragmentation)",numeric:!0,value:e=>e.fragmentation?.unused??null,format:e=>e.fragmentation?`${x(e.fragmentation.unused)} (${(e.fragmentation.unused_fraction*100).toFixed(0)} %)`:"—"},{key:"retries",label:"alloc retries",numeric:!0,value:e=>e.fragmentation?.retries??null,format:e=>w(e.fragmentation?.retries)},{key:"slope",label:"trend per step",title:"Theil-Sen slope after warm-up (allocated on CUDA, else RSS), with its 95 % interval",numeric:!0,value:e=>e.trend?.slope??null,format:e=>e.trend?`${x(e.trend.slope)} [${x(e.trend.low)}, ${x(e.trend.high)}]`:"—"}],bs=[{key:"label",label:"first user frame",numeric:!1,value:e=>e.label},{key:"peak_bytes",label:"live at peak",numeric:!0,value:e=>e.peak_bytes,format:e=>`${x(e.peak_bytes)} (${w(e.peak_count)})`},{key:"snapshot_bytes",label:"live at snapshot",numeric:!0,value:e=>e.snapshot_bytes,format:e=>`${x(e.snapshot_bytes)} (${w(e.snapshot_count)})`},{key:"trace_bytes",label:"allocated in trace",numeric:!0,value:e=>e.trace_bytes,format:e=>`${x(e.trace_bytes)} (${w(e.trace_count)})`}],gs=[{key:"index",label:"allocation",numeric:!0,value:e=>e.index},{key:"size",label:"size",numeric:!0,value:e=>e.size,format:e=>x(e.size)},{key:"frame",label:"first user frame",numeric:!1,value:e=>e.first_user_frame?`${e.first_user_frame.filename}:${e.first_user_frame.line} (${e.first_user_frame.name})`:"—"}];function vs(e,t,n,r){let s=new De(e,t.file,n,t.time_unit,r),o=n.by_first_user_frame.length;return a("div",{class:"snapshot-device","data-testid":"snapshot-device"},a("p",{class:"muted"},`Device ${n.device}: ${x(n.reserved_bytes)} reserved, ${x(n.allocated_bytes)} allocated at the snapshot; at most ${x(n.peak.live_bytes)} live at once (with ${x(n.peak.reserved_bytes)} reserved); ${w(n.allocations)} allocations.`),a("h3",{},"What holds the peak, by first user frame"),a("div",{class:"table-scroll"},F({columns:bs,rows:n.by_first_user_frame,testId:"peak-frames",rowTestId:"peak-frame",rowName:i=>i.label})),o<n.frames_total?a("p",{class:"muted"},`The ${o} of ${n.frames_total} groups with the most memory at the peak.`):null,a("h3",{},"Largest allocations at the peak"),a("div",{class:"table-scroll"},F({columns:gs,rows:n.largest_at_peak,testId:"peak-largest",rowTestId:"peak-allocation",rowName:i=>String(i.index)})),a("h3",{},"Allocations over time"),s.element)}function ws(e,t,n){let r=t.devices,s=a("div",{}),o=a("select",{"data-testid":"snapshot-device-select","aria-label":"Device"},...r.map(u=>a("option",{value:String(u.device)},`cuda:${u.device}`))),i=()=>{let u=r.find(c=>String(c.device)===o.value)??r[0];s.replaceChildren(u?vs(e,t,u,n):a("p",{class:"muted"},"This snapshot holds no device."))};o.addEventListener("change",i),i();let l=t.trace_entries.oom??0;return a("div",{"data-testid":"snapshot-summary"},a("p",{},`${t.format} snapshot, ${x(t.reserved_bytes)} reserved, ${x(t.allocated_bytes)} allocated, free blocks ${(t.fragmentation.external*100).toFixed(0)} % fragmented`+(l?`; ${l} out-of-memory error(s) in its trace`:"")+(t.time_unit==="index"?"; no times recorded (entries in order)":"")),r.length>1?a("label",{},"Device ",o):null,s)}function ys(e,t,n,r){if(t.length===0)return he("Memory snapshots","snapshots",a("p",{class:"muted","data-testid":"no-snapshots"},"No memory snapshots in this run. Record CUDA allocator history around a few steps with MemorySnapshotter (ENABLE_MEMORY_SNAPSHOT=1) to see what holds the peak, by line of code, and every allocation over time."));let s=a("select",{"data-testid":"snapshot-select","aria-label":"Snapshot"},...t.map(u=>a("option",{value:u.file},`${u.file} (${u.rank===null?"rank unknown":`rank ${u.rank}`}, ${x(u.bytes)})`)));s.value=t.some(u=>u.file===n)?n??"":t[0]?.file??"";let o=a("div",{class:"snapshot-body"}),i=new AbortController,l=async()=>{i.abort(),i=new AbortController;let u=AbortSignal.any([r,i.signal]),c=s.value;o.replaceChildren(a("p",{class:"muted"},`Loading ${c}…`));try{let m=await qt(e,c,u,d=>{o.replaceChildren(a("p",{class:"muted"},`Loading ${c}… ${Math.round(d.fraction*100)} %`))});o.replaceChildren(ws(e,m,u))}catch(m){if(ms(m))return;o.replaceChildren(a("div",{class:"error",role:"alert","data-testid":"snapshot-error"},a("strong",{},`Could not read ${c}`),a("p",{},m instanceof Error?m.message:String(m))))}};return s.addEventListener("change",()=>{l()}),l(),he("Memory snapshots","snapshots",a("label",{},"Snapshot ",s),o)}function xs(e){return e.length===0?null:a("section",{class:"warnings","data-testid":"warnings",role:"status"},a("h2",{},`${e.length} warning(s) while reading memory data`),a("ul",{},...e.map(t=>a("li",{},t))))}function ks(e,t,n,r){let s=e.ranks.length>0?he("Peak and fragmentation per rank","memory-ranks",a("div",{class:"table-scroll"},F({columns:fs,rows:e.ranks,testId:"memory-rank-table",rowTestId:"memory-rank-row",rowName:o=>String(o.rank)}))):null;return a("div",{class:"memory","data-testid":"memory"},xs(e.warnings),Le(e.findings,t),...hs(e),s,ys(e.run,e.snapshots,n,r))}var on={id:"memory",label:"Memory",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,navigate:s,params:o}){let i=await Kt(e,t,n,r),l=typeof o.snapshot=="string"?o.snapshot:null;return ks(i,s,l,n)}};var Je=40;function Ss(e,t){let n=t.map((s,o)=>{let i=e.ns[s]??0,l=e.duration_ns>0?i/e.duration_ns:0;return a("span",{class:`breakdown-part category-${s}`,style:`width: ${(l*100).toFixed(3)}%; background: ${s==="idle"?"var(--grid)":D(o)}`,title:`${s}: ${f(i)} (${(l*100).toFixed(1)} %)`})}),r=e.step===null?"trace":`step ${e.step}`;return a("div",{class:"breakdown-row","data-testid":"breakdown-bar"},a("span",{class:"breakdown-label"},r),a("span",{class:"breakdown-bar","aria-label":r},...n),a("span",{class:"breakdown-total muted"},f(e.duration_ns)))}function ln(e){if(e.ranks.length===0)return a("p",{class:"muted"},"No traces in this run: record some steps with profile_steps to see what each step is made of.");let t=a("div",{class:"legend"},...e.categories.map((r,s)=>a("span",{class:"legend-item"},a("span",{class:"legend-swatch",style:`background: ${r==="idle"?"var(--grid)":D(s)}`}),r))),n=e.ranks.map(({rank:r,steps:s})=>a("div",{class:"breakdown-rank"},a("h3",{},`rank ${r}`),...s.slice(0,Je).map(o=>Ss(o,e.categories)),s.length>Je?a("p",{class:"muted"},`First ${Je} of ${s.length} steps.`):null));return a("div",{class:"breakdown","data-testid":"breakdown"},t,...n)}var dn={key:"total_ns",direction:"desc"},U=(e,t,n,r)=>({key:e,label:t,numeric:!0,value:n,format:s=>f(n(s)),...r===void 0?{}:{title:r}}),Ts=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"host",label:"host",numeric:!1,value:e=>e.host},{key:"pid",label:"pid",numeric:!0,value:e=>e.pid,format:e=>String(e.pid)},{key:"status",label:"status",numeric:!1,value:e=>e.status},{key:"steps",label:"steps",numeric:!0,value:e=>e.steps,format:e=>w(e.steps)},U("mean","mean step",e=>e.step_time_ns?.mean??null),U("p50","p50 step",e=>e.step_time_ns?.p50??null),U("p95","p95 step",e=>e.step_time_ns?.p95??null),U("max","max step",e=>e.step_time_ns?.max??null)];function _s(e){let t=[{key:"name",label:"name",numeric:!1,value:n=>n.name},{key:"calls",label:"calls",numeric:!0,value:n=>n.calls,format:n=>w(n.calls)},U("total_ns","total",n=>n.total_ns,"Sum of the span's durations"),U("self_ns","self",n=>n.self_ns,"Total minus the time of direct child spans"),U("mean_ns","mean",n=>n.mean_ns),U("p50_ns","p50",n=>n.p50_ns),U("p95_ns","p95",n=>n.p95_ns),{key:"pct_of_step",label:"% of step",title:"Total as a share of all step time of the selected ranks (can exceed 100 % for spans outside steps)",numeric:!0,value:n=>n.pct_of_step,format:n=>Z(n.pct_of_step)}];return e&&t.push(U("gpu_total_ns","GPU total",r=>r.gpu_total_ns,"Sum of the spans' CUDA-event durations")),t}function Ms(e){let t=A(),n=t.get("sort"),r=t.get("dir");return!e.some(s=>s.key===n)||r!=="asc"&&r!=="desc"?dn:{key:n??dn.key,direction:r}}function fe(e,...t){return a("section",{class:"panel"},a("h2",{},e),...t)}function Rs(e){return e.length===0?null:a("section",{class:"warnings","data-testid":"warnings",role:"status"},a("h2",{},e.length===1?"1 warning while reading this run":`${e.length} warnings while reading this run`),a("ul",{},...e.map(t=>a("li",{},t))))}function Es(e){let t=e.step_series.filter(i=>i.steps.length>0);if(t.length===0)return a("p",{class:"muted"},"No completed steps yet.");let n=e.ranks.map(i=>i.rank),r=Math.max(...t.map(i=>i.bucket)),s=G({series:t.map(i=>({label:`rank ${i.rank}`,color:D(n.indexOf(i.rank)),x:i.steps,y:i.time_ns})),height:260,xLabel:"step",formatX:i=>String(i),formatY:f,yTickFormat:xe,testId:"step-chart"}),o=r>1?a("p",{class:"muted"},`Each point is the mean of ${r} consecutive steps.`):null;return a("div",{},s,o)}function $s(e){if(e.spans.length===0)return a("p",{class:"muted"},"No timer spans in this run. Wrap code in MyTimer spans to see where step time goes.");let t=_s(e.spans.some(s=>s.gpu_total_ns!==null)),n=F({columns:t,rows:e.spans,testId:"span-table",rowTestId:"span-row",rowName:s=>s.name,sort:Ms(t),onSortChange:s=>$({sort:s.key,dir:s.direction})}),r=e.spans_truncated?a("p",{class:"muted"},`Showing the ${e.spans.length} spans with the largest total time.`):null;return a("div",{class:"table-scroll"},n,r)}function Ls(e){let{count:t,first:n,last:r}=e.steps,s=e.rank===null?`all ${e.ranks.length} ranks`:`rank ${e.rank}`;return t===0||n===null||r===null?`No completed steps (${s}).`:`${w(t)} steps, ${n}–${r} (${s}).`}var cn=5;function As(e,t,n){if(e.rows.length===0&&t.rows.length===0)return null;let r=(i,l)=>{let u=a("button",{type:"button",class:"link-button"},l);return u.addEventListener("click",()=>n(i,{})),u},s=e.rows.some(i=>i.device_self_ns>0),o=(i,l)=>a("ol",{class:"top-list","data-testid":l},...i.map(([u,c])=>a("li",{},a("span",{class:"top-name"},u),` ${c}`)));return fe("Top operators and kernels",e.rows.length?a("div",{},a("h3",{},`Operators by ${s?"device":"host"} self time`),o(e.rows.map(i=>[i.name,f(s?i.device_self_ns:i.host_self_ns)]),"top-operators"),r("operators","All operators")):null,t.rows.length?a("div",{},a("h3",{},"Kernels by total time"),o(t.rows.map(i=>[i.name,f(i.total_ns)]),"top-kernels"),r("kernels","All kernels")):null)}function Cs(e,t,n,r,s){let o=F({columns:Ts,rows:e.ranks,testId:"rank-table",rowTestId:"rank-row",rowName:l=>String(l.rank),rowClass:l=>l.rank===e.rank?"selected":void 0}),i=t.filter(l=>e.rank===null||l.ranks.length===0||l.ranks.includes(e.rank));return a("div",{class:"overview","data-testid":"overview"},Rs(e.warnings),Le(i,s),fe("Step-time breakdown",ln(n)),fe("Ranks",a("p",{class:"muted"},Ls(e)),a("div",{class:"table-scroll"},o)),fe("Step time per rank",Es(e)),fe("Spans",$s(e)),r)}var un={id:"overview",label:"Overview",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,onRanks:s,navigate:o}){let[i,l,u,c,m]=await Promise.all([lt(e,t,n,r),vt(e,n,r),wt(e,t,n,r),ke(e,t,"name",cn,n,r),Se(e,t,cn,n,r)]);s(i.ranks);let d=As(c,m,o);return Cs(i,l.findings,u,d,o)}};var Qe={window:null,selected:null,enabledRanks:null,search:""};function Ze(e){if(e===null||e.trim()==="")return null;let t=Number(e);return Number.isSafeInteger(t)?t:null}function mn(e,t){if(e===null)return null;if(e==="")return[];let n=e.split(t).map(Ze);return n.every(r=>r!==null)?n:null}function pn(){let e=A(),t=Ze(e.get("start")),n=Ze(e.get("end")),r=mn(e.get("sel"),":"),[s,o]=r?.length===2?r:[];return{window:t!==null&&n!==null&&n>t?{start:t,end:n}:null,selected:s!==void 0&&o!==void 0?{rank:s,id:o}:null,enabledRanks:mn(e.get("ranks"),","),search:e.get("q")??""}}function te(e){let t={};e.window!==void 0&&(t.start=e.window&&String(Math.round(e.window.start)),t.end=e.window&&String(Math.round(e.window.end))),e.selected!==void 0&&(t.sel=e.selected&&`${e.selected.rank}:${e.selected.id}`),e.enabledRanks!==void 0&&(t.ranks=e.enabledRanks&&e.enabledRanks.join(",")),e.search!==void 0&&(t.q=e.search===""?null:e.search),$(t)}var Ps={clock_sync:"The collectors measured this rank's clock offset to rank 0.",collectives:"Offset fitted so that the same collectives end together on every rank.",steps:"Offset chosen so that this rank's step boundaries line up with the other ranks'.",reference:"Rank 0's own clock: the reference the other ranks are aligned to.",none:"Not aligned: no clock sync, collectives or steps to align with."};function hn(e){let{method:t,uncertainty_ns:n}=e;return t==="reference"||t==="none"?t:`${t} ±${f(n)}`}function fn(e){let t=[Ps[e.method]??e.method];if(e.method!=="reference"&&e.method!=="none"){if(t.push(`Offset added to this rank's clock: ${f(e.offset_ns)}.`,`Remaining error at most ±${f(e.uncertainty_ns)}.`),e.method==="collectives"||e.method==="steps"){let n=e.outliers?`, ${e.outliers} set aside as outliers`:"";t.push(`Fitted on ${e.pairs} matched pairs${n}.`)}e.drift_ns_per_s!==null&&t.push(`Clock drift corrected: ${f(e.drift_ns_per_s)} per s.`)}return t}var Ds=1e3;function bn(e,t){return t!==null&&e.set("ranks",t.join(",")),e}function gn(e,t,n){return R(`./timeline/meta?${new URLSearchParams({run:e})}`,t,n)}function vn(e,t,n,r){let s=new URLSearchParams({run:e,start:String(t.start),end:String(t.end),width_px:String(t.widthPx)});return R(`./timeline/tiles?${bn(s,t.ranks)}`,n,r)}function et(e,t,n){let r=new URLSearchParams({run:e,rank:String(t.rank),id:String(t.id)});return R(`./timeline/event?${r}`,n)}function wn(e,t,n,r){let s=new URLSearchParams({run:e,q:t,limit:String(Ds)});return R(`./timeline/search?${bn(s,n)}`,r)}function yn(e,t,n){return e.map(({rank:r})=>{let s=a("button",{type:"button",class:"rank-toggle","aria-pressed":String(t(r)),"data-testid":"timeline-rank-toggle","data-rank":r,title:`Show or hide rank ${r}`},`rank ${r}`);return s.addEventListener("click",()=>n(r)),s})}function xn(e,t){let n=a("select",{"data-testid":"timeline-step-select","aria-label":"Jump to step",disabled:e.length===0},a("option",{value:""},e.length===0?"No steps":"Jump to step…"),...e.map((r,s)=>a("option",{value:String(s)},`step ${r.step} (${f(r.end-r.start)})`)));return n.addEventListener("change",()=>{let r=e[Number(n.value)];n.value!==""&&r&&t(r)}),n}function Ns(e){return typeof e=="string"?e:JSON.stringify(e)}function q(e,t){return a("tr",{},a("th",{scope:"row"},e),a("td",{},t))}function Hs(e){let{event:t,peer:n}=e,r=t.flow;if(r===null)return null;let o=t.kind==="runtime"?"Launches":"Launched by",i=n?.name??`event ${r.id}`,l=a("button",{type:"button",class:"link-button","data-testid":"timeline-flow-link"},`${i} (rank ${r.rank}, ${e.laneLabel(r.lane)}) →`);return l.addEventListener("click",()=>e.onJump({rank:r.rank,id:r.id})),q(o,l)}function kn(e){let{event:t,zero:n}=e,r=a("button",{type:"button",class:"link-button"},"Zoom to event");r.addEventListener("click",e.onZoom);let s=Object.entries(t.args);return a("div",{class:"details-body"},a("div",{class:"details-header"},a("h2",{class:"details-title",title:t.name},t.name),r),a("table",{class:"details-table"},a("tbody",{},q("kind",t.kind),q("rank",String(t.rank)),q("lane",e.laneLabel(t.lane)),q("step",t.step===null?"—":String(t.step)),q("start",`${Q(t.start-n)} from run start`),q("duration",`${f(t.dur)} (${t.dur.toLocaleString("en-US")} ns)`),q("event id",String(t.id)),Hs(e))),s.length===0?null:a("table",{class:"details-table details-args","data-testid":"timeline-details-args"},a("caption",{},"Arguments"),a("tbody",{},...s.map(([o,i])=>q(o,Ns(i))))))}function Is(e){return e.kind==="counter"?36:Math.max(1,e.rows)*18+6}function Sn(e,t,n){let r=[],s=new Map,o=0;for(let i of e.ranks){if(!t.has(i.rank))continue;let l=n.has(i.rank);if(r.push({type:"rank",rank:i,collapsed:l,top:o,height:24}),o+=24,!l)for(let u of i.lanes){let c={type:"lane",rank:i.rank,lane:u,top:o,height:Is(u)};r.push(c),s.set(u.id,c),o+=c.height}}return{bands:r,lanes:s,height:o}}function Tn(e,t){return e.bands.find(n=>t>=n.top&&t<n.top+n.height)??null}function ie(e,t){return e.top+3+t*18}function _n(e,t){let n=Math.floor((t-e.top-3)/18);return n>=0&&n<e.lane.rows?n:-1}function Mn(e){return e.bands.flatMap(t=>t.type==="rank"&&!t.collapsed?[t.rank.rank]:[])}var Fs=3,Os=.0015,Ws=16,Bs=400,Gs=.8,zs=.1,Us=Math.log(10),Xs=1;function Ks(e){if(e.ctrlKey||e.metaKey||e.altKey)return null;let t=e.key.toLowerCase();return t==="w"||t==="a"||t==="s"||t==="d"?t:null}function Rn(e,t){return t===WheelEvent.DOM_DELTA_LINE?e*Ws:t===WheelEvent.DOM_DELTA_PAGE?e*Bs:e}function En(e,t){let n=null,r=new Set,s=0,o=(d,p)=>t.zoomAt(n,d==="w"?p:1/p),i=(d,p)=>t.panBy((d==="d"?1:-1)*p*t.timeAreaWidth()),l=d=>{d==="w"||d==="s"?o(d,Gs):i(d,zs)},u=(d,p)=>{d==="w"||d==="s"?o(d,Math.exp(-Us*p)):i(d,Xs*p)},c=d=>{if(r.size===0)return;let p=Math.min(.05,(d-s)/1e3);s=d;for(let h of r)u(h,p);requestAnimationFrame(c)};e.addEventListener("keydown",d=>{if(d.key==="Escape"){t.escape();return}let p=Ks(d);p!==null&&(d.preventDefault(),!(d.repeat||r.has(p))&&(l(p),r.add(p),r.size===1&&(s=performance.now(),requestAnimationFrame(c))))}),e.addEventListener("keyup",d=>{r.delete(d.key.toLowerCase())}),e.addEventListener("blur",()=>r.clear()),e.addEventListener("wheel",d=>{if(d.offsetX<220)return;d.preventDefault();let p=Rn(d.deltaX,d.deltaMode),h=Rn(d.deltaY,d.deltaMode);Math.abs(p)>Math.abs(h)?t.panBy(p):t.zoomAt(d.offsetX,Math.exp(h*Os))},{passive:!1});let m=null;e.addEventListener("pointerdown",d=>{d.button===0&&(e.setPointerCapture(d.pointerId),m={startX:d.offsetX,lastX:d.offsetX,moved:!1})}),e.addEventListener("pointermove",d=>{if(n=d.offsetX>=220?d.offsetX:null,m===null){t.hoverAt(d.offsetX,d.offsetY);return}Math.abs(d.offsetX-m.startX)>Fs&&(m.moved=!0),m.moved&&(t.panBy(m.lastX-d.offsetX),m.lastX=d.offsetX)}),e.addEventListener("pointerup",d=>{m!==null&&!m.moved&&t.clickAt(d.offsetX,d.offsetY),m=null}),e.addEventListener("pointercancel",()=>{m=null}),e.addEventListener("pointerleave",()=>{n=null,t.hoverEnd()})}var Vs=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]],qs=1e4;function Ys(e){let t=10**Math.floor(Math.log10(e));return[1,2,5,10].map(n=>n*t).find(n=>n>=e)??10*t}function $n(e){return Vs.find(([t])=>e>=t)??[1,"ns"]}function Ln(e,t){return Math.max(0,Math.ceil(-Math.log10(e/t)-1e-9))}function An(e,t,n,r,s){let o=Math.max(1,Ys((t-e)/Math.max(1,n)*r)),i=Math.ceil((e-s)/o)*o,l=Math.abs(i)/o>qs,u=o*100,c=l?Math.floor(i/u)*u:0,m=[];for(let y=i;s+y<t;y+=o)m.push(y);let d=Math.max(o,...m.map(y=>Math.abs(y-c))),[p,h]=$n(d),b=Ln(o,p),v=m.map(y=>`${l?"+":""}${((y-c)/p).toFixed(b)} ${h}`),S=null;if(l){let[y,k]=$n(Math.abs(c)||1);S=`${(c/y).toFixed(Ln(u,y))} ${k}`}return{ticks:m.map(y=>s+y),labels:v,baseLabel:S}}var Ne="11px Roboto, 'Helvetica Neue', Arial, sans-serif",js="500 12px Roboto, 'Helvetica Neue', Arial, sans-serif",Js=110,Zs=1,Qs=28,ea=.45;function ta(e){let{window:t,width:n}=e,r=(n-220)/Math.max(1,t.end-t.start);return{x:s=>220+(s-t.start)*r,left:220,right:n}}var nt=0;function na(e){if(nt===0){let t="aten::addmm_sgemm_128x64_nn cudaLaunchKernel ProfilerStep#12";nt=e.measureText(t).width/t.length}return nt}function rt(e,t,n){let r=Math.floor(n/na(e));return r<2?null:t.length<=r?t:`${t.slice(0,r-1)}…`}function ra(e){let t=e.scrollTop,n=t+e.height-28;return e.layout.bands.filter(r=>r.type==="lane"&&r.top+r.height>t&&r.top<n)}function sa(e,t,n,r,s){let{theme:o,tile:i}=s,l=c=>{let m=r.x(t.start[c]??0),d=r.x(t.end[c]??0);if(d<r.left||m>r.right)return null;let p=Math.round(Math.max(m,r.left-1)),h=Math.round(Math.min(d,r.right+1));return[p,Math.max(h-p,Zs)]},u=(c,m)=>{e.rect(m[0],ie(n,t.row[c]??0)+1,m[1],16)};for(let c=0;c<40;c+=1){let m=t.colorOffsets[c]??0,d=t.colorOffsets[c+1]??0;if(m!==d){e.fillStyle=o.boxes[c]??o.accent;for(let p of[!1,!0]){e.beginPath();for(let h=m;h<d;h+=1){let b=t.byColor[h]??0;if((t.count[b]??1)>1!==p)continue;let v=l(b);v&&u(b,v)}e.globalAlpha=p?ea:1,e.fill()}}}e.globalAlpha=1,e.fillStyle=o.boxText;for(let c=0;c<t.size;c+=1){let m=l(c);if(m===null||m[1]<Qs)continue;let d=i?.names[t.name[c]??0]??"",p=t.count[c]??1,h=rt(e,p>1?`${w(p)} × ${d}`:d,m[1]-6);h!==null&&e.fillText(h,m[0]+3,ie(n,t.row[c]??0)+18/2)}}function Pn(e){let t=0;for(let n of e.value)t=Math.max(t,n);return t||1}function at(e,t){return/bytes/i.test(e)?Y(t):w(t)}function aa(e,t,n,r,s){let{t:o,value:i}=t;if(o.length===0)return;let l=Pn(t),u=n.top+n.height-2,c=d=>u-d/l*(n.height-8),m=Math.min(r.x(s.tile?.end??s.window.end),r.right);e.beginPath(),e.moveTo(r.x(o[0]??0),u);for(let d=0;d<o.length;d+=1){let p=Math.max(r.x(o[d]??0),r.left-1),h=Math.min(d+1<o.length?r.x(o[d+1]??0):m,r.right+1),b=c(i[d]??0);e.lineTo(p,b),e.lineTo(h,b)}e.lineTo(m,u),e.closePath(),e.globalAlpha=.3,e.fillStyle=s.theme.accent,e.fill(),e.globalAlpha=1,e.strokeStyle=s.theme.accent,e.lineWidth=1,e.stroke()}function oa(e,t,n){let r=t.layout.lanes.get(e.lane);if(!r)return null;let s=Math.max(n.x(e.start),n.left-2),o=Math.min(n.x(e.end),n.right+2);return[s,ie(r,e.row),Math.max(o-s,2)]}function Cn(e,t,n,r,s){let o=oa(t,n,r);o&&(e.lineWidth=s,e.strokeStyle=n.theme.text,e.strokeRect(o[0],o[1]+.5,o[2],17))}function ia(e,t,n,r){let s=n.layout.lanes.get(t.from.lane),o=n.layout.lanes.get(t.to.lane);if(!s||!o)return;let i=r.x(t.from.start),l=ie(s,t.from.row)+18/2,u=r.x(t.to.start),c=ie(o,t.to.row)+18/2,m=Math.max(20,Math.abs(c-l)/2);e.strokeStyle=n.theme.accent,e.fillStyle=n.theme.accent,e.lineWidth=1.5,e.beginPath(),e.moveTo(i,l),e.bezierCurveTo(i,l+Math.sign(c-l||1)*m,u,c-Math.sign(c-l||1)*m,u,c),e.stroke();let d=Math.sign(c-l||1);e.beginPath(),e.moveTo(u,c),e.lineTo(u-4,c-d*8),e.lineTo(u+4,c-d*8),e.closePath(),e.fill();for(let[p,h]of[[i,l],[u,c]])e.beginPath(),e.arc(p,h,3,0,2*Math.PI),e.fill()}function la(e,t){let{theme:n,width:r}=t,s=t.scrollTop,o=s+t.height-28;e.fillStyle=n.surface,e.fillRect(0,s,220,o-s),e.textBaseline="middle";for(let i of t.layout.bands)if(!(i.top+i.height<=s||i.top>=o)){if(i.type==="rank"){e.fillStyle=n.grid,e.fillRect(0,i.top,r,24),e.font=js,e.fillStyle=n.text;let l=`${i.collapsed?"▸":"▾"} rank ${i.rank.rank}`;e.fillText(l,8,i.top+24/2),e.font=Ne,e.fillStyle=n.mutedText;let u=rt(e,hn(i.rank.alignment),140);u&&e.fillText(u,76,i.top+24/2)}else{e.font=Ne,e.fillStyle=n.text;let l=rt(e,i.lane.label,196);l&&e.fillText(l,16,i.top+Math.min(i.height,24)/2);let u=t.tile?.counters.get(i.lane.id);if(u&&u.t.length>0){e.fillStyle=n.mutedText;let c=`max ${at(i.lane.label,Pn(u))}`;e.fillText(c,16,i.top+i.height-9)}}e.fillStyle=n.border,e.fillRect(0,i.top+i.height-1,r,1)}e.fillRect(219,s,1,o-s)}function da(e,t,n,r){let{theme:s,width:o}=n;e.fillStyle=s.background,e.fillRect(0,0,o,28),e.fillStyle=s.border,e.fillRect(0,27,o,1),e.font=Ne,e.textBaseline="middle",e.fillStyle=s.mutedText,e.fillText(t.baseLabel?`from ${t.baseLabel}`:"from run start",8,28/2),t.ticks.forEach((i,l)=>{let u=Math.round(r.x(i))+.5;e.fillRect(u,22,1,5),e.fillText(t.labels[l]??"",u+3,28/2-2)})}function Dn(e,t){let{width:n,height:r,theme:s,tile:o,window:i}=t,l=ta(t),u=An(i.start,i.end,n-220,Js,t.zero);e.fillStyle=s.background,e.fillRect(0,0,n,r),e.font=Ne,e.textBaseline="middle",e.save(),e.beginPath(),e.rect(0,28,n,r-28),e.clip(),e.translate(0,28-t.scrollTop),la(e,t),e.save(),e.beginPath(),e.rect(220,t.scrollTop,n-220,r),e.clip(),e.fillStyle=s.grid;for(let c of u.ticks)e.fillRect(Math.round(l.x(c)),t.scrollTop,1,r);for(let c of ra(t)){let m=o?.lanes.get(c.lane.id);m&&sa(e,m,c,l,t);let d=o?.counters.get(c.lane.id);d&&aa(e,d,c,l,t)}t.hovered&&Cn(e,t.hovered,t,l,1),t.selected&&Cn(e,t.selected,t,l,2),t.flow&&ia(e,t.flow,t,l),e.restore(),e.restore(),da(e,u,t,l),t.emptyMessage!==null&&(e.fillStyle=s.mutedText,e.textAlign="center",e.fillText(t.emptyMessage,220+(n-220)/2,68),e.textAlign="start")}var ca=250,He=class{constructor(t){this.options=t;this.input=a("input",{type:"search",class:"search-input",placeholder:"Search events by name","aria-label":"Search events by name","data-testid":"timeline-search",value:t.initialText});let n=a("button",{type:"button","data-testid":"timeline-prev",title:"Previous match (Shift+Enter)"},"‹ Prev"),r=a("button",{type:"button","data-testid":"timeline-next",title:"Next match (Enter)"},"Next ›");n.addEventListener("click",()=>{this.step(-1)}),r.addEventListener("click",()=>{this.step(1)}),this.input.addEventListener("input",()=>{this.options.onTextChange(this.text()),clearTimeout(this.typingTimer),this.typingTimer=window.setTimeout(()=>{this.refresh()},ca)}),this.input.addEventListener("keydown",s=>{s.key==="Enter"&&(s.preventDefault(),this.step(s.shiftKey?-1:1))}),this.element=a("div",{class:"search",role:"search"},this.input,this.count,n,r)}options;element;input;count=a("span",{class:"search-count","data-testid":"timeline-search-count","aria-live":"polite"});result=null;resultText="";index=-1;inFlight=new AbortController;typingTimer=0;text(){return this.input.value.trim()}refresh(){clearTimeout(this.typingTimer),this.inFlight.abort(),this.inFlight=new AbortController;let t=this.inFlight.signal,n=this.text();return this.index=-1,n===""?(this.result=null,this.resultText="",this.showCount(),Promise.resolve()):(this.count.textContent="…",this.options.search(n,t).then(r=>{t.aborted||(this.result=r,this.resultText=n,this.showCount())},r=>{t.aborted||(this.result=null,this.count.textContent="search failed",this.count.title=r instanceof I?r.message:String(r))}))}async step(t){(this.result===null||this.resultText!==this.text())&&await this.refresh();let n=this.result?.matches??[];if(n.length===0)return;if(this.index===-1){let s=this.options.viewStart(),o=n.findIndex(l=>l.start>=s),i=o===-1?0:o;this.index=t===1?i:(i-1+n.length)%n.length}else this.index=(this.index+t+n.length)%n.length;this.showCount();let r=n[this.index];r&&this.options.onMatch(r)}showCount(){let t=this.result;this.count.title="",t===null?this.count.textContent="":t.total===0?this.count.textContent="no matches":this.index===-1?this.count.textContent=`${w(t.total)} ${t.total===1?"match":"matches"}`:this.count.textContent=`${w(this.index+1)} / ${w(t.total)}`,t!==null&&t.total>t.matches.length&&(this.count.title=`Next and previous visit the first ${w(t.matches.length)} matches in time order.`)}};function Nn(e,t){let n=new Uint32Array(t);for(let i=0;i<e.length;i+=1){let l=e[i]??0;n[l]=(n[l]??0)+1}let r=new Uint32Array(t+1);for(let i=0;i<t;i+=1)r[i+1]=(r[i]??0)+(n[i]??0);let s=r.slice(0,t),o=new Uint32Array(e.length);for(let i=0;i<e.length;i+=1){let l=e[i]??0;o[s[l]??0]=i,s[l]=(s[l]??0)+1}return[o,r]}function ua(e,t,n){for(let r=0;r+1<t.length;r+=1){let s=e.subarray(t[r]??0,t[r+1]??0);for(let o=1;o<s.length;o+=1)if((n[s[o]??0]??0)<(n[s[o-1]??0]??0)){s.sort((i,l)=>(n[i]??0)-(n[l]??0));break}}}function ma(e,t){let n=e.start.length,r=new Float64Array(n),s=new Float64Array(n),o=new Uint16Array(n),i=new Uint32Array(n),l=new Uint8Array(n),u=0;for(let h=0;h<n;h+=1){let b=e.start[h]??0;r[h]=b,s[h]=b+(e.dur[h]??0);let v=e.row[h]??0;o[h]=v,u=Math.max(u,v+1);let S=e.name[h]??0;i[h]=S,l[h]=t[S]??0}let[c,m]=Nn(o,u);ua(c,m,r);let[d,p]=Nn(l,40);return{size:n,start:r,end:s,row:o,name:i,count:Float64Array.from(e.count),eventId:Float64Array.from(e.id),byColor:d,colorOffsets:p,byRow:c,rowOffsets:m}}function Hn(e,t){let n=Uint8Array.from(e.names,Ae);return{start:e.start,end:e.end,nsPerPx:e.ns_per_px,ranksKey:t,names:e.names,lanes:new Map(e.lanes.map(r=>[r.id,ma(r.boxes,n)])),counters:new Map(e.counters.map(r=>[r.id,r])),flows:e.flows}}function In(e,t,n,r){let s=e.rowOffsets[t],o=e.rowOffsets[t+1];if(s===void 0||o===void 0)return-1;let i=s,l=o;for(;i<l;){let m=i+l>>1;(e.start[e.byRow[m]??0]??0)<=n+r?i=m+1:l=m}let u=-1,c=1/0;for(let m=i-1;m>=Math.max(s,i-2);m-=1){let d=e.byRow[m]??0,p=e.start[d]??0,h=e.end[d]??0,b=n<p?p-n:n>h?n-h:0;b<=r&&b<c&&(u=d,c=b)}return u}var pa=60,Fn=8192,ha=1.5;function Wn(e){return e===null?"all":e.join(",")}function On(e,t){if(e===null||e.ranksKey!==Wn(t.ranks))return!1;let{window:n,extent:r}=t,s=(n.end-n.start)/t.widthPx;return e.start<=Math.max(n.start,r.start)&&e.end>=Math.min(n.end,r.end)&&e.nsPerPx<=s*ha}function fa(e){let{window:t,extent:n}=e,r=t.end-t.start,s=r/e.widthPx,o=Math.max(0,Math.min(r/2,(Fn*s-r)/2)),i=Math.floor(Math.max(n.start,t.start-o)),l=Math.ceil(Math.min(n.end,t.end+o)),u=Math.min(Fn,Math.max(1,Math.round((l-i)/s)));return{start:i,end:Math.max(l,i+1),widthPx:u,ranks:e.ranks,nsPerPx:(l-i)/u,ranksKey:Wn(e.ranks)}}var Ie=class{constructor(t,n){this.run=t;this.listener=n}run;listener;timer=0;inFlight=null;want(t,n){clearTimeout(this.timer),!(On(n,t)||On(this.inFlight?.query??null,t))&&(this.timer=window.setTimeout(()=>this.fetch(t),pa))}refetch(t){clearTimeout(this.timer),this.fetch(t)}cancel(){clearTimeout(this.timer),this.inFlight?.controller.abort(),this.inFlight=null}fetch(t){this.cancel();let n=fa(t),r=new AbortController;this.inFlight={query:n,controller:r},vn(this.run,n,r.signal,this.listener.onProgress).then(s=>{r.signal.aborted||(this.inFlight=null,this.listener.onTile(Hn(s,n.ranksKey)))},s=>{r.signal.aborted||(this.inFlight=null,this.listener.onError(s))})}};var ba=200,ga=2,va=1;function Bn(e,t){return e!==null&&t!==null&&e.rank===t.rank&&e.id===t.id}var Fe=class{constructor(t,n){this.run=t;this.window=n.window,this.selected=n.selected,this.enabledRanks=n.enabledRanks&&new Set(n.enabledRanks);let r=this.canvas.getContext("2d",{alpha:!1});if(r===null)throw new Error("This browser cannot draw on a canvas.");this.ctx=r,this.theme=ue(),this.selected&&(this.canvas.dataset.selected=`${this.selected.rank}:${this.selected.id}`),this.search=new He({initialText:n.search,search:(o,i)=>wn(this.run,o,this.enabledRankList(),i),onMatch:o=>this.showMatch(o),onTextChange:o=>te({search:o}),viewStart:()=>this.window?.start??0}),this.tiles=new Ie(t,{onTile:o=>{this.tile=o,this.status.hidden=!0,this.scheduleDraw()},onProgress:o=>this.showProgress(o),onError:o=>this.showError(o)});let s=a("button",{type:"button","data-testid":"timeline-reset"},"Reset zoom");s.addEventListener("click",()=>this.setWindow(this.bounds)),this.scroller.append(this.canvas,this.spacer),this.scroller.addEventListener("scroll",()=>this.scheduleDraw()),this.element=a("div",{class:"timeline","data-testid":"timeline","data-run":t},a("div",{class:"timeline-toolbar"},this.rankToggleGroup,this.stepPicker,s,this.search.element,a("span",{class:"muted hint"},"W/S or wheel: zoom · A/D or drag: pan · Esc: deselect")),a("div",{class:"timeline-stage"},this.scroller,this.tooltip,this.status),this.details),this.attachObservers(),En(this.canvas,{zoomAt:(o,i)=>this.zoomAt(o,i),panBy:o=>this.panBy(o),timeAreaWidth:()=>this.timeAreaWidth(),clickAt:(o,i)=>this.clickAt(o,i),hoverAt:(o,i)=>this.hoverAt(o,i),hoverEnd:()=>this.setHover(null,null),escape:()=>this.select(null,!1)})}run;element;loaded=!1;meta=null;layout={bands:[],lanes:new Map,height:0};bounds={start:0,end:1};window;enabledRanks;collapsedRanks=new Set;tile=null;selected;selectedEvent=null;flowPeer=null;hovered=null;selectionRequest=new AbortController;canvas=a("canvas",{class:"timeline-canvas",tabindex:0,"data-testid":"timeline-canvas","aria-label":"Timeline: W/S or the wheel zoom, A/D or dragging pan, click selects"});ctx;theme;scroller=a("div",{class:"timeline-scroller"});spacer=a("div",{class:"timeline-spacer"});tooltip=a("div",{class:"chart-tooltip timeline-tooltip",hidden:!0});status=a("div",{class:"timeline-status","data-testid":"timeline-status",hidden:!0});details=a("section",{class:"timeline-details","data-testid":"timeline-details","aria-live":"polite"},a("p",{class:"muted"},"Click an event to see its details."));rankToggleGroup=a("div",{class:"rank-toggles",role:"group","aria-label":"Ranks"});stepPicker=a("label",{class:"step-picker"});search;tiles;observers=[];size={width:0,height:0,dpr:1};drawPending=!1;hashTimer=0;async load(t,n){let r=await gn(this.run,t,n);t.aborted||(this.meta=r,this.loaded=!0,this.bounds=tn(r.start,r.end),this.relayout(),this.setWindow(this.window??this.bounds),this.stepPicker.replaceChildren(xn(r.steps,s=>this.setWindow(ee(s.start,s.end,.02,this.bounds)))),this.tile=null,this.tiles.cancel(),this.requestTiles(!0),this.selected&&this.select(this.selected,!1),this.search.refresh())}showStep(t){let n=this.meta?.steps.find(r=>r.step===t);n&&this.setWindow(ee(n.start,n.end,.02,this.bounds))}dispose(){this.tiles.cancel(),this.selectionRequest.abort();for(let t of this.observers)t.disconnect()}attachObservers(){let t=new ResizeObserver(()=>this.resize());t.observe(this.scroller);let n=new MutationObserver(()=>{this.theme=ue(),this.scheduleDraw()});n.observe(document.documentElement,{attributes:!0,attributeFilter:["data-theme"]}),this.observers.push(t,n)}enabledRankList(){return this.enabledRanks&&[...this.enabledRanks].sort((t,n)=>t-n)}isRankEnabled(t){return this.enabledRanks===null||this.enabledRanks.has(t)}relayout(){let t=this.meta;if(!t)return;let n=new Set(t.ranks.map(r=>r.rank).filter(r=>this.isRankEnabled(r)));this.layout=Sn(t,n,this.collapsedRanks),this.rankToggleGroup.replaceChildren(...yn(t.ranks,r=>this.isRankEnabled(r),r=>this.toggleRank(r))),this.resizeSpacer(),this.scheduleDraw()}toggleRank(t){let n=this.meta?.ranks.map(s=>s.rank)??[],r=this.enabledRanks??new Set(n);r.has(t)?r.delete(t):r.add(t),this.enabledRanks=n.every(s=>r.has(s))?null:r,te({enabledRanks:this.enabledRankList()}),this.relayout(),this.requestTiles(!1),this.search.refresh()}toggleCollapsed(t){this.collapsedRanks.has(t)?this.collapsedRanks.delete(t):this.collapsedRanks.add(t),this.relayout(),this.requestTiles(!1)}setWindow(t){this.window=j(t,this.bounds),this.canvas.dataset.start=String(Math.round(this.window.start)),this.canvas.dataset.end=String(Math.round(this.window.end)),this.scheduleDraw(),this.requestTiles(!1),clearTimeout(this.hashTimer),this.hashTimer=window.setTimeout(()=>te({window:this.window}),ba)}requestTiles(t){let n=this.meta,r=this.window,s=this.timeAreaWidth();if(!n||!r||s<=0)return;let o=Mn(this.layout);if(o.length===0)return;let i=o.length===n.ranks.length,l={window:r,widthPx:s,ranks:i?null:o,extent:{start:n.start,end:n.end}};t?this.tiles.refetch(l):this.tiles.want(l,this.tile)}timeAreaWidth(){return Math.max(0,this.size.width-220)}timeAt(t){let n=this.window??this.bounds;return n.start+(t-220)/Math.max(1,this.timeAreaWidth())*(n.end-n.start)}nsPerPx(){let t=this.window??this.bounds;return(t.end-t.start)/Math.max(1,this.timeAreaWidth())}zoomAt(t,n){let r=this.window;if(!r)return;let s=t===null?(r.start+r.end)/2:this.timeAt(t);this.navigateTo(Pe(r,s,n,this.bounds))}panBy(t){this.window&&this.navigateTo(me(this.window,t*this.nsPerPx(),this.bounds))}navigateTo(t){(t.start!==this.window?.start||t.end!==this.window.end)&&this.setWindow(t)}select(t,n){this.selectionRequest.abort(),this.selectionRequest=new AbortController;let r=this.selectionRequest.signal;if(Bn(t,this.selectedEvent)||(this.selectedEvent=null,this.flowPeer=null),this.selected=t,t?this.canvas.dataset.selected=`${t.rank}:${t.id}`:delete this.canvas.dataset.selected,te({selected:t}),this.scheduleDraw(),t===null){this.details.replaceChildren(a("p",{class:"muted"},"Click an event to see its details."));return}this.loadSelection(t,n,r)}async loadSelection(t,n,r){try{let s=await et(this.run,t,r);if(r.aborted)return;if(this.selectedEvent=s,n&&this.window&&this.setWindow(en(this.window,s.start,s.start+s.dur,this.bounds)),this.showDetails(),this.scheduleDraw(),s.flow){if(this.flowPeer=await et(this.run,s.flow,r),r.aborted)return;this.showDetails(),this.scheduleDraw()}}catch(s){if(r.aborted)return;this.details.replaceChildren(a("p",{class:"error",role:"alert"},`Could not load the event: ${s instanceof I?s.message:String(s)}`))}}showDetails(){let t=this.selectedEvent;t&&this.details.replaceChildren(kn({event:t,peer:this.flowPeer,zero:this.meta?.start??0,laneLabel:n=>this.laneLabel(n),onJump:n=>{this.revealRank(n.rank),this.select(n,!0)},onZoom:()=>this.setWindow(ee(t.start,t.start+t.dur,.5,this.bounds))}))}laneLabel(t){for(let n of this.meta?.ranks??[]){let r=n.lanes.find(s=>s.id===t);if(r)return r.label}return t}revealRank(t){this.collapsedRanks.delete(t)&&(this.relayout(),this.requestTiles(!1))}showMatch(t){this.revealRank(t.rank),this.setWindow(ee(t.start,t.start+t.dur,va,this.bounds)),this.select({rank:t.rank,id:t.id},!1)}hitTest(t,n){if(n<28)return null;let r=Tn(this.layout,n-28+this.scroller.scrollTop);if(!r)return null;if(r.type==="rank")return{rankBand:r.rank.rank};let s=this.timeAt(t),o=_n(r,n-28+this.scroller.scrollTop),i=this.tile?.lanes.get(r.lane.id),l=i&&o>=0&&t>=220?In(i,o,s,ga*this.nsPerPx()):-1;return{band:r,box:l,row:o,time:s}}clickAt(t,n){this.canvas.focus();let r=this.hitTest(t,n);if(r&&"rankBand"in r){this.toggleCollapsed(r.rankBand);return}let s=r&&this.tile?.lanes.get(r.band.lane.id);if(!r||!s||r.box<0){t>=220&&this.select(null,!1);return}let o=s.count[r.box]??1,i=s.start[r.box]??0,l=s.end[r.box]??0;o>1?this.setWindow(ee(i,l,.1,this.bounds)):this.select({rank:r.band.rank,id:s.eventId[r.box]??-1},!1)}hoverAt(t,n){let r=this.hitTest(t,n);if(r===null)return this.setHover(null,null);if("rankBand"in r){let p=this.meta?.ranks.find(h=>h.rank===r.rankBand);return this.canvas.style.cursor="pointer",this.setHover(null,p?[`rank ${p.rank} (click to ${this.collapsedRanks.has(p.rank)?"expand":"collapse"})`,...fn(p.alignment)]:null,t,n)}this.canvas.style.cursor="";let s=r.band.lane;if(t<220)return this.setHover(null,[s.label,`rank ${r.band.rank} · ${s.kind}`],t,n);if(s.kind==="counter")return this.setHover(null,this.counterTooltip(r),t,n);let o=this.tile?.lanes.get(s.id);if(!o||r.box<0)return this.setHover(null,null);let i=o.start[r.box]??0,l=o.end[r.box]??0,u=o.count[r.box]??1,c=this.tile?.names[o.name[r.box]??0]??"",m=this.meta?.start??0,d=u>1?[`${w(u)} events`,`longest: ${c}`,`over ${f(l-i)} from ${Q(i-m)}`,"click to zoom in"]:[c,`duration ${f(l-i)}`,`start ${Q(i-m)}`];this.setHover({lane:s.id,row:r.row,start:i,end:l},d,t,n)}counterTooltip(t){let n=this.tile?.counters.get(t.band.lane.id);if(!n)return null;let r=-1;for(let o=0;o<n.t.length&&(n.t[o]??0)<=t.time;o+=1)r=o;let s=n.value[r];return s===void 0?null:[t.band.lane.label,at(t.band.lane.label,s)]}setHover(t,n,r=0,s=0){if(this.hovered=t,this.scheduleDraw(),n===null){this.tooltip.hidden=!0;return}let[o,...i]=n;this.tooltip.replaceChildren(a("div",{class:"tooltip-title"},o??""),...i.map(u=>a("div",{},u))),this.tooltip.hidden=!1;let l=r+16+this.tooltip.offsetWidth>this.size.width;this.tooltip.style.left=`${l?r-12-this.tooltip.offsetWidth:r+16}px`,this.tooltip.style.top=`${s+16}px`}showProgress(t){let n=Math.round(Math.min(1,Math.max(0,t.fraction))*100);this.status.removeAttribute("role"),this.status.textContent=`Reading run files… ${n} % (${Y(t.done_bytes)} of ${Y(t.total_bytes)})`,this.status.hidden=!1}showError(t){let n=t instanceof I?`${t.message} (${t.code})`:String(t);this.status.setAttribute("role","alert"),this.status.textContent=`Could not load this part of the timeline: ${n}`,this.status.hidden=!1}resize(){let t=this.scroller.clientWidth,n=this.scroller.clientHeight,r=window.devicePixelRatio||1;t===this.size.width&&n===this.size.height&&r===this.size.dpr||(this.size={width:t,height:n,dpr:r},!(t===0||n===0)&&(this.canvas.style.width=`${t}px`,this.canvas.style.height=`${n}px`,this.canvas.width=Math.round(t*r),this.canvas.height=Math.round(n*r),this.resizeSpacer(),this.requestTiles(!1),this.drawNow()))}resizeSpacer(){this.spacer.style.height=`${Math.max(0,28+this.layout.height-this.size.height)}px`}scheduleDraw(){this.drawPending||(this.drawPending=!0,requestAnimationFrame(()=>this.drawNow()))}drawNow(){this.drawPending=!1;let{width:t,height:n,dpr:r}=this.size;t===0||n===0||!this.window||(this.ctx.setTransform(r,0,0,r,0,0),Dn(this.ctx,{width:t,height:n,scrollTop:this.scroller.scrollTop,window:this.window,zero:this.meta?.start??0,layout:this.layout,tile:this.tile,theme:this.theme,hovered:this.hovered,...this.selectionSpans(),emptyMessage:this.emptyMessage()}))}emptyMessage(){return this.layout.bands.length>0?null:this.meta?.ranks.length?"Every rank is hidden: turn one on with the rank buttons above.":"This run has no timeline events: no MyTimer spans and no profiler traces yet."}selectionSpans(){let t=this.selectedEvent;if(!t||!Bn(t,this.selected))return{selected:null,flow:null};let n=o=>({lane:o.lane,row:o.row,start:o.start,end:o.start+o.dur}),r=n(t),s=this.flowPeer;return s?t.kind==="runtime"?{selected:r,flow:{from:r,to:n(s)}}:{selected:r,flow:{from:n(s),to:r}}:{selected:r,flow:null}}};var be=null,ot=!1;function wa(e){if(be?.run===e)return be;be?.dispose();let t=ot?Qe:pn();return ot&&te(Qe),ot=!0,be=new Fe(e,t),be}var Gn={id:"timeline",label:"Timeline",usesRankSelect:!1,async show({run:e,signal:t,refresh:n,onProgress:r,params:s}){let o=wa(e);(n||!o.loaded)&&await o.load(t,r);let i=Number(s.step);return s.step!=null&&Number.isInteger(i)&&o.showStep(i),o.element}};var ne=[un,Gn,Dt,Tt,Pt,on,Qt,Xt];var it="";function zn(e){let t=ne[0];if(t===void 0)throw new Error("no dashboards registered");return ne.find(n=>n.id===e)??t}function ya(e){let t=Math.round(Math.min(1,Math.max(0,e.fraction))*100),n=a("div",{class:"progress-bar"});return n.style.width=`${t}%`,a("div",{class:"progress","data-testid":"progress"},a("div",{class:"progress-track",role:"progressbar","aria-valuemin":0,"aria-valuemax":100,"aria-valuenow":t},n),a("p",{},`Reading run files… ${t} % (${Y(e.done_bytes)} of ${Y(e.total_bytes)})`))}function Un(e,t){let n=t instanceof I?`${t.message} (${t.code})`:String(t);return a("div",{class:"error","data-testid":"error",role:"alert"},a("strong",{},e),a("p",{},n))}function xa(){return a("div",{class:"empty","data-testid":"empty"},a("h2",{},"No runs yet"),a("p",{},"This logdir holds no tb-perf runs. See the README quick start to record one with the collectors (or point TensorBoard at a torch.profiler trace directory), then press TensorBoard's reload button."))}function Xn(e){return e instanceof DOMException&&e.name==="AbortError"}var Oe=class{runs=[];run;rank;dashboard;inFlight=new AbortController;runSelect=a("select",{"data-testid":"run-select","aria-label":"Run"});runStatus=a("span",{class:"badge","data-testid":"run-status"});rankSelect=a("select",{"data-testid":"rank-select","aria-label":"Rank"});rankLabel=a("label",{},"Rank ",this.rankSelect);tabs=ne.map(t=>a("button",{type:"button",role:"tab",class:"tab","data-testid":`tab-${t.id}`},t.label));toolbar=a("header",{class:"toolbar",hidden:!0},a("nav",{class:"tabs",role:"tablist","aria-label":"Dashboards"},...this.tabs),a("label",{},"Run ",this.runSelect),this.runStatus,this.rankLabel);content=a("main",{class:"content"},a("p",{class:"muted"},"Loading runs…"));constructor(t){let n=A();this.run=n.get("run");let r=Number.parseInt(n.get("rank")??"",10);this.rank=Number.isInteger(r)?r:null,this.dashboard=zn(n.get("dashboard")),this.showActiveTab(),this.tabs.forEach((s,o)=>s.addEventListener("click",()=>{let i=ne[o];i===void 0||i===this.dashboard||this.open(i,{})})),this.runSelect.addEventListener("change",()=>{this.run=this.runSelect.value,this.showSelectedRun(),this.loadDashboard(this.restart(),!0)}),this.rankSelect.addEventListener("change",()=>{this.rank=this.rankSelect.value===it?null:Number(this.rankSelect.value),this.saveSelection(),this.loadDashboard(this.restart(),!0)}),t.replaceChildren(a("div",{class:"app"},this.toolbar,this.content))}async reload(){let t=this.restart();try{this.runs=await ye(t)}catch(n){Xn(n)||this.content.replaceChildren(Un("Could not list the runs",n));return}if(this.toolbar.hidden=this.runs.length===0,this.runs.length===0){this.run=null,this.content.replaceChildren(xa());return}this.runSelect.replaceChildren(...this.runs.map(n=>a("option",{value:n.name},`${n.name} (${n.status})`))),this.runs.some(n=>n.name===this.run)||(this.run=this.runs[0]?.name??null),this.showSelectedRun(),await this.loadDashboard(t,!0)}restart(){return this.inFlight.abort(),this.inFlight=new AbortController,this.inFlight.signal}open(t,n){this.dashboard=t;let r=Number(n.rank);t.usesRankSelect&&n.rank!=null&&Number.isInteger(r)&&(this.rank=r,this.rankSelect.value=String(r)),this.showActiveTab(),this.saveSelection(),this.loadDashboard(this.restart(),!1,n)}showActiveTab(){this.tabs.forEach((t,n)=>{let r=ne[n]===this.dashboard;t.setAttribute("aria-selected",String(r)),t.classList.toggle("active",r)}),this.rankLabel.hidden=!this.dashboard.usesRankSelect}selectedRun(){return this.runs.find(t=>t.name===this.run)}showSelectedRun(){let t=this.selectedRun();t&&(this.runSelect.value=t.name,this.runStatus.textContent=t.status,this.runStatus.className=`badge status-${t.status}`,this.rank!==null&&!t.ranks.includes(this.rank)&&(this.rank=null),this.fillRankSelect(t.ranks.map(n=>({rank:n}))),this.saveSelection())}fillRankSelect(t){this.rankSelect.replaceChildren(a("option",{value:it},"All ranks"),...t.map(n=>a("option",{value:String(n.rank)},n.host?`rank ${n.rank} · ${n.host}`:`rank ${n.rank}`))),this.rankSelect.value=this.rank===null?it:String(this.rank)}saveSelection(){let t=this.dashboard===ne[0];$({run:this.run,rank:this.rank===null?null:String(this.rank),dashboard:t?null:this.dashboard.id})}async loadDashboard(t,n,r={}){let s=this.run;if(s!==null){this.content.setAttribute("aria-busy","true");try{let o=await this.dashboard.show({run:s,rank:this.rank,signal:t,refresh:n,onProgress:i=>this.content.replaceChildren(ya(i)),onRanks:i=>this.fillRankSelect(i),navigate:(i,l)=>this.open(zn(i),l),params:r});t.aborted||this.content.replaceChildren(o)}catch(o){Xn(o)||this.content.replaceChildren(Un(`Could not load run “${s}”`,o))}finally{t.aborted||this.content.removeAttribute("aria-busy")}}}};var ka="experimental.DataReloaded";function Sa(e){if(typeof e!="string")return null;try{let t=JSON.parse(e);return typeof t=="object"&&t!==null&&"type"in t&&"id"in t?t:null}catch{return null}}function Kn(e){if(window.parent===window)return;let t=new MessageChannel;t.port1.onmessage=n=>{let r=Sa(n.data);if(r===null||r.isReply)return;let s={type:r.type,id:r.id,payload:null,error:null,isReply:!0};t.port1.postMessage(JSON.stringify(s)),r.type===ka&&e()};try{window.parent.postMessage("experimental.bootstrap","*",[t.port2])}catch{}}var Vn=`/* Colours follow TensorBoard: white / #303030 backgrounds, orange accent. theme.ts sets data-theme. */
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

/* Compare tab */
.compare-pickers {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 12px;
  margin-bottom: 16px;
}
.compare-pickers label {
  display: flex;
  align-items: center;
  gap: 6px;
  color: var(--fg-muted);
}
.compare select,
.compare-swap {
  font: inherit;
  color: var(--fg);
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 4px;
  padding: 3px 6px;
  max-width: 40ch;
}
.compare-swap {
  cursor: pointer;
}
.compare h3 {
  font-size: 13px;
  font-weight: 500;
  margin: 12px 0 4px;
}
.compare-headline {
  font-size: 15px;
  margin: 0 0 4px;
}
.verdict-badge {
  border: 1px solid currentColor;
  border-radius: 10px;
  padding: 0 8px;
  font-size: 12px;
  font-weight: 500;
  text-transform: uppercase;
}
.verdict-badge.verdict-faster,
.delta-better {
  color: var(--status-live);
}
.verdict-badge.verdict-slower,
.delta-worse {
  color: var(--status-stopped);
}
.verdict-badge.verdict-no-change,
.verdict-badge.verdict-inconclusive {
  color: var(--fg-muted);
}
.delta-chart {
  display: block;
}
.delta-bar.delta-faster {
  fill: var(--status-live);
}
.delta-bar.delta-slower {
  fill: var(--status-stopped);
}
.delta-bar.delta-same {
  fill: var(--border);
}
`;function ql(){document.head.append(a("style",{},Vn)),gt();let e=new Oe(document.body);Kn(()=>{e.reload()}),e.reload()}export{ql as render};

var R=class extends Error{constructor(n,r){super(r);this.code=n}code};function j(e){return typeof e=="object"&&e!==null}function Ut(e){return j(e)&&j(e.progress)?e.progress:null}function Xt(e,t){let n=j(t)?t.error:void 0;return j(n)&&typeof n.message=="string"?new R(String(n.code??"error"),n.message):new R("http_error",`The server answered HTTP ${e}.`)}function zt(e,t){return new Promise((n,r)=>{let o=setTimeout(n,e);t.addEventListener("abort",()=>{clearTimeout(o),r(t.reason)},{once:!0})})}async function Gt(e,t){try{return await fetch(e,{signal:t,headers:{Accept:"application/json"}})}catch(n){throw t.aborted?n:new R("unreachable","The TensorBoard server did not answer. Is it still running?")}}async function E(e,t,n){for(;;){let r=await Gt(e,t),o=await r.json().catch(()=>null),i=r.status===202?Ut(o):null;if(i){n?.(i),await zt(500,t);continue}if(!r.ok)throw Xt(r.status,o);if(o===null)throw new R("bad_response","The server sent a response that is not JSON.");return o}}function Ee(e){return E("./runs",e)}function Me(e,t,n,r){let o=new URLSearchParams({run:e});return t!==null&&o.set("rank",String(t)),E(`./summary?${o}`,n,r)}function Ae(e,t){for(let[n,r]of Object.entries(t))r===void 0||r===!1||e.setAttribute(n,r===!0?"":String(r))}function a(e,t={},...n){let r=document.createElement(e);Ae(r,t);for(let o of n)o!=null&&o!==!1&&r.append(o);return r}var Kt="http://www.w3.org/2000/svg";function M(e,t={},...n){let r=document.createElementNS(Kt,e);Ae(r,t);for(let o of n)o!=null&&o!==!1&&r.append(o);return r}var k={top:10,right:16,bottom:38,left:68},qt=90,Vt=40;function Le(e,t,n,r){let i=(t-e||Math.abs(t)||1)/Math.max(1,n),s=10**Math.floor(Math.log10(i)),l=[1,2,5,10].map(d=>d*s).find(d=>d>=i)??10*s;r&&(l=Math.max(1,Math.round(l)));let m=Math.floor(e/l)*l,c=Math.max(Math.ceil(t/l)*l,m+l),u=[];for(let d=0;m+d*l<=c+l/2;d+=1)u.push(Number((m+d*l).toPrecision(12)));return{min:m,max:c,ticks:u}}function $e(e,t){let n=0,r=e.length;for(;n<r;){let o=n+r>>1;(e[o]??1/0)<t?n=o+1:r=o}return n}function jt(e,t){let n=null;for(let{x:r}of e){let o=$e(r,t);for(let i of[r[o-1],r[o]])i!==void 0&&(n===null||Math.abs(i-t)<Math.abs(n-t))&&(n=i)}return n}function Pe(e){let t=1/0,n=-1/0;for(let r of e)r<t&&(t=r),r>n&&(n=r);return[t,n]}function*Ce(e,t){for(let n of e)yield*n[t]}function Yt(e,t,n){let{series:r,height:o}=e,i=t-k.left-k.right,s=o-k.top-k.bottom,[l,m]=Pe(Ce(r,"x")),[,c]=Pe(Ce(r,"y")),u=Le(l,m,i/qt,!0),d=Le(0,c,s/Vt,!1),h=x=>k.left+(x-u.min)/(u.max-u.min)*i,p=x=>k.top+(1-(x-d.min)/(d.max-d.min))*s,f=k.top+s,y=M("svg",{width:t,height:o,class:"chart-svg",role:"img"}),_=e.yTickFormat(d.ticks);for(let x of d.ticks){let D=p(x).toFixed(1);y.append(M("line",{class:"chart-grid",x1:k.left,x2:t-k.right,y1:D,y2:D}),M("text",{class:"chart-tick",x:k.left-6,y:D,"text-anchor":"end","dominant-baseline":"middle"},_(x)))}for(let x of u.ticks)y.append(M("text",{class:"chart-tick",x:h(x).toFixed(1),y:f+16,"text-anchor":"middle"},e.formatX(x)));y.append(M("line",{class:"chart-axis",x1:k.left,x2:t-k.right,y1:f,y2:f}),M("text",{class:"chart-label",x:k.left+i/2,y:o-4,"text-anchor":"middle"},e.xLabel));for(let x of r){let D=x.x.map((ae,L)=>`${h(ae).toFixed(1)},${p(x.y[L]??0).toFixed(1)}`);y.append(D.length===1?M("circle",{cx:h(x.x[0]??0),cy:p(x.y[0]??0),r:3,fill:x.color,"data-series":x.label}):M("polyline",{class:"chart-line",points:D.join(" "),stroke:x.color,"data-series":x.label}))}let g=M("line",{class:"chart-guide",y1:k.top,y2:f,visibility:"hidden"}),S=M("g"),se=M("rect",{x:k.left,y:k.top,width:i,height:s,class:"chart-hover"});y.append(g,S,se);let Se=()=>{g.setAttribute("visibility","hidden"),S.replaceChildren(),n.hidden=!0};return se.addEventListener("pointerleave",Se),se.addEventListener("pointermove",x=>{let D=y.getBoundingClientRect().left,ae=u.min+(x.clientX-D-k.left)/i*(u.max-u.min),L=jt(r,ae);if(L===null)return Se();let _e=[];S.replaceChildren();for(let B of r){let Re=$e(B.x,L),de=B.y[Re];B.x[Re]!==L||de===void 0||(S.append(M("circle",{cx:h(L),cy:p(de),r:3.5,fill:B.color,class:"chart-marker"})),_e.push(a("div",{class:"tooltip-row"},a("span",{class:"swatch",style:`background:${B.color}`}),`${B.label}: ${e.formatY(de)}`)))}g.setAttribute("x1",h(L).toFixed(1)),g.setAttribute("x2",h(L).toFixed(1)),g.setAttribute("visibility","visible"),n.replaceChildren(a("div",{class:"tooltip-title"},`${e.xLabel} ${e.formatX(L)}`),..._e),n.hidden=!1;let le=12,Bt=h(L)+le+n.offsetWidth>t;n.style.left=`${Bt?h(L)-le-n.offsetWidth:h(L)+le}px`,n.style.top=`${k.top}px`}),y}function Y(e){let t=a("div",{class:"chart-tooltip",role:"tooltip","data-testid":`${e.testId}-tooltip`});t.hidden=!0;let n=a("div",{class:"chart-plot"},t),r=a("ul",{class:"chart-legend"},...e.series.map(i=>a("li",{},a("span",{class:"swatch",style:`background:${i.color}`}),i.label))),o=0;return new ResizeObserver(()=>{let i=n.clientWidth;i===0||i===o||(o=i,n.replaceChildren(Yt(e,i,t),t))}).observe(n),a("figure",{class:"chart","data-testid":e.testId},n,r)}var Jt=new Intl.NumberFormat("en-US");function J(e){let t=Math.abs(e),n=t>=100?0:t>=10?1:2;return new Intl.NumberFormat("en-US",{minimumFractionDigits:n,maximumFractionDigits:n}).format(e)}function b(e){if(e==null||!Number.isFinite(e))return"—";let t=Math.abs(e);return t>=1e9?`${J(e/1e9)} s`:t>=1e6?`${J(e/1e6)} ms`:t>=1e3?`${J(e/1e3)} µs`:`${Math.round(e)} ns`}var Ne=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]];function De(e){let t=Math.max(0,...e.map(Math.abs)),[n,r]=Ne.find(([s])=>t>=s)??[1,"ns"],o=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/n:1,i=Math.min(3,Math.max(0,-Math.floor(Math.log10(o))));return s=>`${(s/n).toFixed(i)} ${r}`}function v(e){return e==null?"—":Jt.format(e)}function He(e){return e==null||!Number.isFinite(e)?"—":e>0&&e<.05?"<0.1 %":`${e.toFixed(1)} %`}function H(e){let t=["B","KB","MB","GB","TB"],n=e,r=0;for(;n>=1e3&&r<t.length-1;)n/=1e3,r+=1;return r===0?`${e} B`:`${J(n)} ${t[r]}`}function G(e){let[t,n]=Ne.find(([o])=>Math.abs(e)>=o)??[1,"ns"],r=Math.round(Math.log10(t));return`${(e/t).toFixed(r)} ${n}`}function A(){return new URLSearchParams(location.hash.slice(1))}function P(e){let t=A();for(let[r,o]of Object.entries(e))o===null?t.delete(r):t.set(r,o);let n=new URL(location.href);n.hash=t.toString(),history.replaceState(history.state,"",n.href)}var Zt={asc:"ascending",desc:"descending"},Qt={asc:" ▲",desc:" ▼"},en={asc:"desc",desc:"asc"};function tn(e,t){return typeof e=="number"&&typeof t=="number"?e-t:String(e).localeCompare(String(t))}function nn(e,t,n){let r=n==="asc"?1:-1;return[...e].sort((o,i)=>{let s=t.value(o),l=t.value(i);return s===null||l===null?s===l?0:s===null?1:-1:r*tn(s,l)})}function rn(e){return e.numeric?"desc":"asc"}function $(e){let{columns:t,testId:n}=e,r=e.sort,o=a("table",{class:"data-table","data-testid":n}),i=a("tr"),s=a("tbody");o.append(a("thead",{},i),s);let l=()=>{i.replaceChildren(...t.map(c=>{let u=r?.key===c.key?r.direction:void 0,d=a("th",{class:c.numeric?"numeric":void 0,title:c.title,"aria-sort":u&&Zt[u],"data-column":c.key});if(!r)return d.append(c.label),d;let h=u?Qt[u]:"",p=a("button",{type:"button",class:"sort-button"},c.label+h);return p.addEventListener("click",()=>{let f=u===void 0?rn(c):en[u];r={key:c.key,direction:f},e.onSortChange?.(r),l(),m()}),d.append(p),d}))},m=()=>{let c=r&&t.find(d=>d.key===r?.key),u=r&&c?nn(e.rows,c,r.direction):e.rows;s.replaceChildren(...u.map(d=>a("tr",{"data-testid":e.rowTestId,"data-name":e.rowName(d),class:e.rowClass?.(d)},...t.map(h=>{let p=h.value(d);return a("td",{class:h.numeric?"numeric":void 0,"data-column":h.key,"data-value":p===null?void 0:String(p)},h.format?h.format(d):String(p??"—"))}))))};return l(),m(),o}function ce(e){document.documentElement.dataset.theme=e?"dark":"light"}function on(){if(window.parent===window)return null;try{return window.parent.document.body}catch{return null}}function Oe(){let e=on();if(e){let n=()=>ce(e.classList.contains("dark-mode"));n(),new MutationObserver(n).observe(e,{attributes:!0,attributeFilter:["class"]});return}let t=window.matchMedia("(prefers-color-scheme: dark)");ce(t.matches),t.addEventListener("change",n=>ce(n.matches))}var Ie=["#4e79a7","#f28e2b","#e15759","#76b7b2","#59a14f","#edc948","#b07aa1","#ff9da7","#9c755f","#bab0ac"];function I(e){return Ie[Math.max(0,e)%Ie.length]??"#888"}function K(e,t={}){let n=new URLSearchParams({run:e});for(let[r,o]of Object.entries(t))o!==null&&n.set(r,String(o));return n.toString()}function We(e,t,n){return E(`./findings?${K(e)}`,t,n)}function Fe(e,t,n,r){return E(`./breakdown?${K(e,{rank:t})}`,n,r)}function Z(e,t,n,r,o,i){let s=`./operators?${K(e,{rank:t,group_by:n,limit:r})}`;return E(s,o,i)}function Q(e,t,n,r,o){return E(`./kernels?${K(e,{rank:t,limit:n})}`,r,o)}function Be(e,t,n,r){return E(`./modules?${K(e,{rank:t})}`,n,r)}var sn=1e3,Ue=(e,t,n="")=>e===null?"—":`${e.toFixed(t)}${n}`,Xe=[{key:"name",label:"kernel",numeric:!1,value:e=>e.name},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>v(e.calls)},{key:"total_ns",label:"total",numeric:!0,value:e=>e.total_ns,format:e=>b(e.total_ns)},{key:"mean_ns",label:"mean",numeric:!0,value:e=>e.mean_ns,format:e=>b(e.mean_ns)},{key:"max_ns",label:"max",numeric:!0,value:e=>e.max_ns,format:e=>b(e.max_ns)},{key:"pct_of_kernel_time",label:"% of GPU time",numeric:!0,value:e=>e.pct_of_kernel_time,format:e=>`${e.pct_of_kernel_time.toFixed(1)} %`},{key:"tensor_cores",label:"Tensor Cores",title:"Guessed from the kernel's name (docs/ANALYSIS.md)",numeric:!1,value:e=>e.tensor_cores?"yes":"no"},{key:"mean_est_occupancy_pct",label:"est. occupancy",numeric:!0,value:e=>e.mean_est_occupancy_pct,format:e=>Ue(e.mean_est_occupancy_pct,1," %")},{key:"est_sm_efficiency",label:"est. SM efficiency",numeric:!0,value:e=>e.est_sm_efficiency,format:e=>Ue(e.est_sm_efficiency===null?null:e.est_sm_efficiency*100,1," %")}];function an(){let e=A(),t=e.get("ksort"),n=e.get("kdir");return Xe.some(r=>r.key===t)&&(n==="asc"||n==="desc")?{key:t,direction:n}:{key:"total_ns",direction:"desc"}}function ln(e){if(e.length===0)return a("p",{class:"muted"},"No GPU kernels in this run's traces.");let t=e.flatMap((n,r)=>{let o=BigInt(n.start_ns[0]??"0"),i=n.start_ns.map(l=>Number(BigInt(l)-o)),s=`rank ${n.rank} GPU ${n.device}`;return[{label:`${s} utilization`,color:I(2*r),x:i,y:n.utilization.map(l=>l*100)},{label:`${s} est. SM efficiency`,color:I(2*r+1),x:i,y:n.est_sm_efficiency.map(l=>l*100)}]});return Y({series:t,height:220,xLabel:"time from the trace's start",formatX:b,formatY:n=>`${n.toFixed(1)} %`,yTickFormat:()=>n=>`${n} %`,testId:"gpu-utilization-chart"})}var ze={id:"kernels",label:"Kernels",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let o=await Q(e,t,sn,n,r),i=o.devices.map(l=>`rank ${l.rank} GPU ${l.device}: ${l.tensor_core_pct.toFixed(1)} % of kernel time on Tensor Cores (by name)`),s=o.rows.length===0?a("p",{class:"muted"},"No GPU kernels in this run's traces."):$({columns:Xe,rows:o.rows,testId:"kernel-table",rowTestId:"kernel-row",rowName:l=>l.name,sort:an(),onSortChange:l=>P({ksort:l.key,kdir:l.direction})});return a("div",{class:"overview","data-testid":"kernels"},a("section",{class:"panel"},a("h2",{},"GPU utilization and est. SM efficiency"),ln(o.devices),...i.map(l=>a("p",{class:"muted"},l))),a("section",{class:"panel"},a("h2",{},"Kernels"),a("div",{class:"table-scroll"},s)))}};var dn="   ";function cn(e){let t=(n,r,o)=>({key:n,label:r,title:o,numeric:!0,value:i=>i[n],format:i=>b(i[n])});return[{key:"name",label:"module",numeric:!1,value:n=>n.path,format:n=>dn.repeat(n.depth)+n.name},{key:"calls",label:"calls",numeric:!0,value:n=>n.calls,format:n=>v(n.calls)},t("total_ns","total","Forward time of its calls, nested modules included"),t("self_ns","self","Total minus the modules nested in it"),t("mean_ns","mean","Per call"),t("p95_ns","p95","Per call"),{key:"share",label:"% of root",numeric:!0,value:n=>e>0?n.total_ns/e:null,format:n=>e>0?`${(100*n.total_ns/e).toFixed(1)} %`:"—"}]}function Ge(...e){return a("div",{class:"overview","data-testid":"modules"},a("section",{class:"panel"},a("h2",{},"Modules"),...e))}var Ke={id:"modules",label:"Modules",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let o=await Be(e,t,n,r);if(o.rows.length===0)return Ge(a("p",{class:"muted"},"No module calls in this run's traces. Record with profile_steps(..., with_stack=True) (or torch.profiler's with_stack=True) in eager mode to see the nn.Module tree."));let i=o.rows.filter(l=>l.depth===0).reduce((l,m)=>l+m.total_ns,0),s=$({columns:cn(i),rows:o.rows,testId:"module-table",rowTestId:"module-row",rowName:l=>l.path});return Ge(a("p",{class:"muted"},"Forward calls from torch.profiler's Python stacks. Names are class names with a per-class counter (Linear_3), not attribute paths; the tree comes from how calls nest."),a("div",{class:"table-scroll"},s))}};var un=1e3,mn=10;function ee(e,t,n){return{key:e,label:t,title:n,numeric:!0,value:r=>r[e],format:r=>b(r[e])}}var hn=[{key:"name",label:"operator",numeric:!1,value:e=>e.name},{key:"input_dims",label:"input shapes",numeric:!1,value:e=>e.input_dims},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>v(e.calls)},ee("device_self_ns","device self","Kernels, copies and fills it launched itself"),ee("device_total_ns","device total","Device self of the op and everything nested in it"),ee("host_self_ns","host self","Host time minus its direct children (as key_averages)"),ee("host_total_ns","host total","Host time of its calls")];function pn(e,t){let n=A(),r=n.get("opsort"),o=n.get("opdir");return e.some(i=>i.key===r)&&(o==="asc"||o==="desc")?{key:r,direction:o}:{key:t?"device_self_ns":"host_self_ns",direction:"desc"}}function fn(e,t){let n=e.some(r=>r.device_total_ns>0);return hn.filter(r=>(t||r.key!=="input_dims")&&(n||!r.key.startsWith("device_")))}function bn(e){let t=e.some(i=>i.device_self_ns>0),n=i=>t?i.device_self_ns:i.host_self_ns,r=[...e].sort((i,s)=>n(s)-n(i)).slice(0,mn),o=Math.max(1,...r.map(n));return a("div",{class:"top-bars","data-testid":"operator-bars"},a("p",{class:"muted"},`Top ${r.length} by ${t?"device":"host"} self time`),...r.map(i=>a("div",{class:"top-bar-row"},a("span",{class:"top-bar-label",title:i.name},i.name),a("span",{class:"top-bar-track"},a("span",{class:"top-bar",style:`width: ${(n(i)/o*100).toFixed(2)}%`})),a("span",{class:"top-bar-value"},b(n(i))))))}var qe={id:"operators",label:"Operators",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,params:o}){let i=a("input",{type:"search",class:"search-input",placeholder:"Filter operators","aria-label":"Filter operators","data-testid":"operator-filter",value:String(o.q??A().get("opq")??"")}),s=a("select",{"aria-label":"Group by","data-testid":"operator-group"},a("option",{value:"name"},"by name"),a("option",{value:"input_dims"},"by name and input shapes"));s.value=A().get("opgroup")==="input_dims"?"input_dims":"name";let l=a("p",{class:"muted","data-testid":"operator-caption"}),m=a("div"),c=a("div",{class:"table-scroll"}),u=[],d=()=>{let f=i.value.trim().toLowerCase(),y=u.filter(S=>f===""||S.name.toLowerCase().includes(f)),_=fn(u,s.value==="input_dims"),g=_.some(S=>S.key==="device_self_ns");m.replaceChildren(bn(y)),c.replaceChildren($({columns:_,rows:y,testId:"operator-table",rowTestId:"operator-row",rowName:S=>S.name,sort:pn(_,g),onSortChange:S=>P({opsort:S.key,opdir:S.direction})})),P({opq:f===""?null:i.value})},h=new AbortController,p=async f=>{h.abort(),h=new AbortController;let y=s.value==="input_dims"?"input_dims":"name",_=f?n:h.signal,g=await Z(e,t,y,un,_,r);u=g.rows,l.textContent=g.total_rows>g.rows.length?`Showing ${g.rows.length} of ${v(g.total_rows)} operators.`:`${v(g.total_rows)} operators.`,d()};return i.addEventListener("input",d),s.addEventListener("change",()=>{P({opgroup:s.value==="input_dims"?"input_dims":null}),p(!1).catch(f=>{f instanceof DOMException&&f.name==="AbortError"||(l.textContent=`Could not load operators: ${String(f)}`)})}),await p(!0),a("div",{class:"overview","data-testid":"operators"},a("section",{class:"panel"},a("h2",{},"Operators"),a("div",{class:"controls"},i,s),l,m,c))}};var ue=40;function gn(e,t){let n=t.map((o,i)=>{let s=e.ns[o]??0,l=e.duration_ns>0?s/e.duration_ns:0;return a("span",{class:`breakdown-part category-${o}`,style:`width: ${(l*100).toFixed(3)}%; background: ${o==="idle"?"var(--grid)":I(i)}`,title:`${o}: ${b(s)} (${(l*100).toFixed(1)} %)`})}),r=e.step===null?"trace":`step ${e.step}`;return a("div",{class:"breakdown-row","data-testid":"breakdown-bar"},a("span",{class:"breakdown-label"},r),a("span",{class:"breakdown-bar","aria-label":r},...n),a("span",{class:"breakdown-total muted"},b(e.duration_ns)))}function Ve(e){if(e.ranks.length===0)return a("p",{class:"muted"},"No traces in this run: record some steps with profile_steps to see what each step is made of.");let t=a("div",{class:"legend"},...e.categories.map((r,o)=>a("span",{class:"legend-item"},a("span",{class:"legend-swatch",style:`background: ${r==="idle"?"var(--grid)":I(o)}`}),r))),n=e.ranks.map(({rank:r,steps:o})=>a("div",{class:"breakdown-rank"},a("h3",{},`rank ${r}`),...o.slice(0,ue).map(i=>gn(i,e.categories)),o.length>ue?a("p",{class:"muted"},`First ${ue} of ${o.length} steps.`):null));return a("div",{class:"breakdown","data-testid":"breakdown"},t,...n)}var vn={overview:"Overview",timeline:"Timeline",operators:"Operators",kernels:"Kernels"};function wn(e,t){return typeof e!="number"?String(e):t==="ns"?b(e):t==="fraction"?`${(e*100).toFixed(1)} %`:t==="x"?`${e.toFixed(2)}×`:t==="%"?`${e.toFixed(1)} %`:String(e)}function yn(e,t){let n=e.view.tab,r=a("button",{type:"button",class:"link-button","data-testid":"finding-link","data-tab":n},`Open in ${vn[n]??n}`);r.addEventListener("click",()=>t(n,e.view.params));let o=Object.entries(e.evidence).map(([i,s])=>a("li",{},`${i.replaceAll("_"," ")}: ${wn(s.value,s.unit)}`));return a("li",{class:`finding severity-${e.severity}`,"data-testid":"finding","data-kind":e.kind,"data-severity":e.severity},a("div",{class:"finding-head"},a("span",{class:`severity-badge severity-${e.severity}`},e.severity),a("strong",{class:"finding-title"},e.title)),a("ul",{class:"finding-evidence"},...o),a("p",{class:"finding-fix"},e.recommendation),r)}function je(e,t){let n=e.length===0?a("p",{class:"muted","data-testid":"no-findings"},"No findings: nothing in this run crossed a threshold."):a("ol",{class:"findings","data-testid":"findings"},...e.map(r=>yn(r,t)));return a("section",{class:"panel"},a("h2",{},"Findings"),n)}var Ye={key:"total_ns",direction:"desc"},C=(e,t,n,r)=>({key:e,label:t,numeric:!0,value:n,format:o=>b(n(o)),...r===void 0?{}:{title:r}}),xn=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"host",label:"host",numeric:!1,value:e=>e.host},{key:"pid",label:"pid",numeric:!0,value:e=>e.pid,format:e=>String(e.pid)},{key:"status",label:"status",numeric:!1,value:e=>e.status},{key:"steps",label:"steps",numeric:!0,value:e=>e.steps,format:e=>v(e.steps)},C("mean","mean step",e=>e.step_time_ns?.mean??null),C("p50","p50 step",e=>e.step_time_ns?.p50??null),C("p95","p95 step",e=>e.step_time_ns?.p95??null),C("max","max step",e=>e.step_time_ns?.max??null)];function kn(e){let t=[{key:"name",label:"name",numeric:!1,value:n=>n.name},{key:"calls",label:"calls",numeric:!0,value:n=>n.calls,format:n=>v(n.calls)},C("total_ns","total",n=>n.total_ns,"Sum of the span's durations"),C("self_ns","self",n=>n.self_ns,"Total minus the time of direct child spans"),C("mean_ns","mean",n=>n.mean_ns),C("p50_ns","p50",n=>n.p50_ns),C("p95_ns","p95",n=>n.p95_ns),{key:"pct_of_step",label:"% of step",title:"Total as a share of all step time of the selected ranks (can exceed 100 % for spans outside steps)",numeric:!0,value:n=>n.pct_of_step,format:n=>He(n.pct_of_step)}];return e&&t.push(C("gpu_total_ns","GPU total",r=>r.gpu_total_ns,"Sum of the spans' CUDA-event durations")),t}function Tn(e){let t=A(),n=t.get("sort"),r=t.get("dir");return!e.some(o=>o.key===n)||r!=="asc"&&r!=="desc"?Ye:{key:n??Ye.key,direction:r}}function q(e,...t){return a("section",{class:"panel"},a("h2",{},e),...t)}function Sn(e){return e.length===0?null:a("section",{class:"warnings","data-testid":"warnings",role:"status"},a("h2",{},e.length===1?"1 warning while reading this run":`${e.length} warnings while reading this run`),a("ul",{},...e.map(t=>a("li",{},t))))}function _n(e){let t=e.step_series.filter(s=>s.steps.length>0);if(t.length===0)return a("p",{class:"muted"},"No completed steps yet.");let n=e.ranks.map(s=>s.rank),r=Math.max(...t.map(s=>s.bucket)),o=Y({series:t.map(s=>({label:`rank ${s.rank}`,color:I(n.indexOf(s.rank)),x:s.steps,y:s.time_ns})),height:260,xLabel:"step",formatX:s=>String(s),formatY:b,yTickFormat:De,testId:"step-chart"}),i=r>1?a("p",{class:"muted"},`Each point is the mean of ${r} consecutive steps.`):null;return a("div",{},o,i)}function Rn(e){if(e.spans.length===0)return a("p",{class:"muted"},"No timer spans in this run. Wrap code in MyTimer spans to see where step time goes.");let t=kn(e.spans.some(o=>o.gpu_total_ns!==null)),n=$({columns:t,rows:e.spans,testId:"span-table",rowTestId:"span-row",rowName:o=>o.name,sort:Tn(t),onSortChange:o=>P({sort:o.key,dir:o.direction})}),r=e.spans_truncated?a("p",{class:"muted"},`Showing the ${e.spans.length} spans with the largest total time.`):null;return a("div",{class:"table-scroll"},n,r)}function En(e){let{count:t,first:n,last:r}=e.steps,o=e.rank===null?`all ${e.ranks.length} ranks`:`rank ${e.rank}`;return t===0||n===null||r===null?`No completed steps (${o}).`:`${v(t)} steps, ${n}–${r} (${o}).`}var Je=5;function Mn(e,t,n){if(e.rows.length===0&&t.rows.length===0)return null;let r=(s,l)=>{let m=a("button",{type:"button",class:"link-button"},l);return m.addEventListener("click",()=>n(s,{})),m},o=e.rows.some(s=>s.device_self_ns>0),i=(s,l)=>a("ol",{class:"top-list","data-testid":l},...s.map(([m,c])=>a("li",{},a("span",{class:"top-name"},m),` ${c}`)));return q("Top operators and kernels",e.rows.length?a("div",{},a("h3",{},`Operators by ${o?"device":"host"} self time`),i(e.rows.map(s=>[s.name,b(o?s.device_self_ns:s.host_self_ns)]),"top-operators"),r("operators","All operators")):null,t.rows.length?a("div",{},a("h3",{},"Kernels by total time"),i(t.rows.map(s=>[s.name,b(s.total_ns)]),"top-kernels"),r("kernels","All kernels")):null)}function An(e,t,n,r,o){let i=$({columns:xn,rows:e.ranks,testId:"rank-table",rowTestId:"rank-row",rowName:l=>String(l.rank),rowClass:l=>l.rank===e.rank?"selected":void 0}),s=t.filter(l=>e.rank===null||l.ranks.length===0||l.ranks.includes(e.rank));return a("div",{class:"overview","data-testid":"overview"},Sn(e.warnings),je(s,o),q("Step-time breakdown",Ve(n)),q("Ranks",a("p",{class:"muted"},En(e)),a("div",{class:"table-scroll"},i)),q("Step time per rank",_n(e)),q("Spans",Rn(e)),r)}var Ze={id:"overview",label:"Overview",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,onRanks:o,navigate:i}){let[s,l,m,c,u]=await Promise.all([Me(e,t,n,r),We(e,n,r),Fe(e,t,n,r),Z(e,t,"name",Je,n,r),Q(e,t,Je,n,r)]);o(s.ranks);let d=Mn(c,u,i);return An(s,l.findings,m,d,i)}};var he={window:null,selected:null,enabledRanks:null,search:""};function me(e){if(e===null||e.trim()==="")return null;let t=Number(e);return Number.isSafeInteger(t)?t:null}function Qe(e,t){if(e===null)return null;if(e==="")return[];let n=e.split(t).map(me);return n.every(r=>r!==null)?n:null}function et(){let e=A(),t=me(e.get("start")),n=me(e.get("end")),r=Qe(e.get("sel"),":"),[o,i]=r?.length===2?r:[];return{window:t!==null&&n!==null&&n>t?{start:t,end:n}:null,selected:o!==void 0&&i!==void 0?{rank:o,id:i}:null,enabledRanks:Qe(e.get("ranks"),","),search:e.get("q")??""}}function O(e){let t={};e.window!==void 0&&(t.start=e.window&&String(Math.round(e.window.start)),t.end=e.window&&String(Math.round(e.window.end))),e.selected!==void 0&&(t.sel=e.selected&&`${e.selected.rank}:${e.selected.id}`),e.enabledRanks!==void 0&&(t.ranks=e.enabledRanks&&e.enabledRanks.join(",")),e.search!==void 0&&(t.q=e.search===""?null:e.search),P(t)}var Ln={clock_sync:"The collectors measured this rank's clock offset to rank 0.",collectives:"Offset fitted so that the same collectives end together on every rank.",steps:"Offset chosen so that this rank's step boundaries line up with the other ranks'.",reference:"Rank 0's own clock: the reference the other ranks are aligned to.",none:"Not aligned: no clock sync, collectives or steps to align with."};function tt(e){let{method:t,uncertainty_ns:n}=e;return t==="reference"||t==="none"?t:`${t} ±${b(n)}`}function nt(e){let t=[Ln[e.method]??e.method];if(e.method!=="reference"&&e.method!=="none"){if(t.push(`Offset added to this rank's clock: ${b(e.offset_ns)}.`,`Remaining error at most ±${b(e.uncertainty_ns)}.`),e.method==="collectives"||e.method==="steps"){let n=e.outliers?`, ${e.outliers} set aside as outliers`:"";t.push(`Fitted on ${e.pairs} matched pairs${n}.`)}e.drift_ns_per_s!==null&&t.push(`Clock drift corrected: ${b(e.drift_ns_per_s)} per s.`)}return t}var Pn=1e3;function rt(e,t){return t!==null&&e.set("ranks",t.join(",")),e}function ot(e,t,n){return E(`./timeline/meta?${new URLSearchParams({run:e})}`,t,n)}function it(e,t,n,r){let o=new URLSearchParams({run:e,start:String(t.start),end:String(t.end),width_px:String(t.widthPx)});return E(`./timeline/tiles?${rt(o,t.ranks)}`,n,r)}function pe(e,t,n){let r=new URLSearchParams({run:e,rank:String(t.rank),id:String(t.id)});return E(`./timeline/event?${r}`,n)}function st(e,t,n,r){let o=new URLSearchParams({run:e,q:t,limit:String(Pn)});return E(`./timeline/search?${rt(o,n)}`,r)}function at(e){let t=2166136261;for(let n=0;n<e.length;n+=1)t^=e.charCodeAt(n),t=Math.imul(t,16777619);return(t>>>0)%40}function lt(e){return Array.from({length:40},(t,n)=>{let r=Math.round(n*137.508%360),o=(e?36:72)+n%3*4;return`hsl(${r} ${e?40:55}% ${o}%)`})}function fe(){let e=getComputedStyle(document.documentElement),t=r=>e.getPropertyValue(r).trim(),n=document.documentElement.dataset.theme==="dark";return{dark:n,background:t("--bg"),surface:t("--surface"),text:t("--fg"),mutedText:t("--fg-muted"),border:t("--border"),grid:t("--grid"),accent:t("--accent"),boxText:n?"#f5f5f5":"#212121",boxes:lt(n)}}function dt(e,t,n){return e.map(({rank:r})=>{let o=a("button",{type:"button",class:"rank-toggle","aria-pressed":String(t(r)),"data-testid":"timeline-rank-toggle","data-rank":r,title:`Show or hide rank ${r}`},`rank ${r}`);return o.addEventListener("click",()=>n(r)),o})}function ct(e,t){let n=a("select",{"data-testid":"timeline-step-select","aria-label":"Jump to step",disabled:e.length===0},a("option",{value:""},e.length===0?"No steps":"Jump to step…"),...e.map((r,o)=>a("option",{value:String(o)},`step ${r.step} (${b(r.end-r.start)})`)));return n.addEventListener("change",()=>{let r=e[Number(n.value)];n.value!==""&&r&&t(r)}),n}function Cn(e){return typeof e=="string"?e:JSON.stringify(e)}function N(e,t){return a("tr",{},a("th",{scope:"row"},e),a("td",{},t))}function $n(e){let{event:t,peer:n}=e,r=t.flow;if(r===null)return null;let i=t.kind==="runtime"?"Launches":"Launched by",s=n?.name??`event ${r.id}`,l=a("button",{type:"button",class:"link-button","data-testid":"timeline-flow-link"},`${s} (rank ${r.rank}, ${e.laneLabel(r.lane)}) →`);return l.addEventListener("click",()=>e.onJump({rank:r.rank,id:r.id})),N(i,l)}function ut(e){let{event:t,zero:n}=e,r=a("button",{type:"button",class:"link-button"},"Zoom to event");r.addEventListener("click",e.onZoom);let o=Object.entries(t.args);return a("div",{class:"details-body"},a("div",{class:"details-header"},a("h2",{class:"details-title",title:t.name},t.name),r),a("table",{class:"details-table"},a("tbody",{},N("kind",t.kind),N("rank",String(t.rank)),N("lane",e.laneLabel(t.lane)),N("step",t.step===null?"—":String(t.step)),N("start",`${G(t.start-n)} from run start`),N("duration",`${b(t.dur)} (${t.dur.toLocaleString("en-US")} ns)`),N("event id",String(t.id)),$n(e))),o.length===0?null:a("table",{class:"details-table details-args","data-testid":"timeline-details-args"},a("caption",{},"Arguments"),a("tbody",{},...o.map(([i,s])=>N(i,Cn(s))))))}function Nn(e){return e.kind==="counter"?36:Math.max(1,e.rows)*18+6}function mt(e,t,n){let r=[],o=new Map,i=0;for(let s of e.ranks){if(!t.has(s.rank))continue;let l=n.has(s.rank);if(r.push({type:"rank",rank:s,collapsed:l,top:i,height:24}),i+=24,!l)for(let m of s.lanes){let c={type:"lane",rank:s.rank,lane:m,top:i,height:Nn(m)};r.push(c),o.set(m.id,c),i+=c.height}}return{bands:r,lanes:o,height:i}}function ht(e,t){return e.bands.find(n=>t>=n.top&&t<n.top+n.height)??null}function U(e,t){return e.top+3+t*18}function pt(e,t){let n=Math.floor((t-e.top-3)/18);return n>=0&&n<e.lane.rows?n:-1}function ft(e){return e.bands.flatMap(t=>t.type==="rank"&&!t.collapsed?[t.rank.rank]:[])}var Dn=3,Hn=.0015,In=16,On=400,Wn=.8,Fn=.1,Bn=Math.log(10),Un=1;function Xn(e){if(e.ctrlKey||e.metaKey||e.altKey)return null;let t=e.key.toLowerCase();return t==="w"||t==="a"||t==="s"||t==="d"?t:null}function bt(e,t){return t===WheelEvent.DOM_DELTA_LINE?e*In:t===WheelEvent.DOM_DELTA_PAGE?e*On:e}function gt(e,t){let n=null,r=new Set,o=0,i=(d,h)=>t.zoomAt(n,d==="w"?h:1/h),s=(d,h)=>t.panBy((d==="d"?1:-1)*h*t.timeAreaWidth()),l=d=>{d==="w"||d==="s"?i(d,Wn):s(d,Fn)},m=(d,h)=>{d==="w"||d==="s"?i(d,Math.exp(-Bn*h)):s(d,Un*h)},c=d=>{if(r.size===0)return;let h=Math.min(.05,(d-o)/1e3);o=d;for(let p of r)m(p,h);requestAnimationFrame(c)};e.addEventListener("keydown",d=>{if(d.key==="Escape"){t.escape();return}let h=Xn(d);h!==null&&(d.preventDefault(),!(d.repeat||r.has(h))&&(l(h),r.add(h),r.size===1&&(o=performance.now(),requestAnimationFrame(c))))}),e.addEventListener("keyup",d=>{r.delete(d.key.toLowerCase())}),e.addEventListener("blur",()=>r.clear()),e.addEventListener("wheel",d=>{if(d.offsetX<220)return;d.preventDefault();let h=bt(d.deltaX,d.deltaMode),p=bt(d.deltaY,d.deltaMode);Math.abs(h)>Math.abs(p)?t.panBy(h):t.zoomAt(d.offsetX,Math.exp(p*Hn))},{passive:!1});let u=null;e.addEventListener("pointerdown",d=>{d.button===0&&(e.setPointerCapture(d.pointerId),u={startX:d.offsetX,lastX:d.offsetX,moved:!1})}),e.addEventListener("pointermove",d=>{if(n=d.offsetX>=220?d.offsetX:null,u===null){t.hoverAt(d.offsetX,d.offsetY);return}Math.abs(d.offsetX-u.startX)>Dn&&(u.moved=!0),u.moved&&(t.panBy(u.lastX-d.offsetX),u.lastX=d.offsetX)}),e.addEventListener("pointerup",d=>{u!==null&&!u.moved&&t.clickAt(d.offsetX,d.offsetY),u=null}),e.addEventListener("pointercancel",()=>{u=null}),e.addEventListener("pointerleave",()=>{n=null,t.hoverEnd()})}var zn=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]],Gn=1e4;function Kn(e){let t=10**Math.floor(Math.log10(e));return[1,2,5,10].map(n=>n*t).find(n=>n>=e)??10*t}function vt(e){return zn.find(([t])=>e>=t)??[1,"ns"]}function wt(e,t){return Math.max(0,Math.ceil(-Math.log10(e/t)-1e-9))}function yt(e,t,n,r,o){let i=Math.max(1,Kn((t-e)/Math.max(1,n)*r)),s=Math.ceil((e-o)/i)*i,l=Math.abs(s)/i>Gn,m=i*100,c=l?Math.floor(s/m)*m:0,u=[];for(let g=s;o+g<t;g+=i)u.push(g);let d=Math.max(i,...u.map(g=>Math.abs(g-c))),[h,p]=vt(d),f=wt(i,h),y=u.map(g=>`${l?"+":""}${((g-c)/h).toFixed(f)} ${p}`),_=null;if(l){let[g,S]=vt(Math.abs(c)||1);_=`${(c/g).toFixed(wt(m,g))} ${S}`}return{ticks:u.map(g=>o+g),labels:y,baseLabel:_}}var te="11px Roboto, 'Helvetica Neue', Arial, sans-serif",qn="500 12px Roboto, 'Helvetica Neue', Arial, sans-serif",Vn=110,jn=1,Yn=28,Jn=.45;function Zn(e){let{window:t,width:n}=e,r=(n-220)/Math.max(1,t.end-t.start);return{x:o=>220+(o-t.start)*r,left:220,right:n}}var ge=0;function Qn(e){if(ge===0){let t="aten::addmm_sgemm_128x64_nn cudaLaunchKernel ProfilerStep#12";ge=e.measureText(t).width/t.length}return ge}function ve(e,t,n){let r=Math.floor(n/Qn(e));return r<2?null:t.length<=r?t:`${t.slice(0,r-1)}…`}function er(e){let t=e.scrollTop,n=t+e.height-28;return e.layout.bands.filter(r=>r.type==="lane"&&r.top+r.height>t&&r.top<n)}function tr(e,t,n,r,o){let{theme:i,tile:s}=o,l=c=>{let u=r.x(t.start[c]??0),d=r.x(t.end[c]??0);if(d<r.left||u>r.right)return null;let h=Math.round(Math.max(u,r.left-1)),p=Math.round(Math.min(d,r.right+1));return[h,Math.max(p-h,jn)]},m=(c,u)=>{e.rect(u[0],U(n,t.row[c]??0)+1,u[1],16)};for(let c=0;c<40;c+=1){let u=t.colorOffsets[c]??0,d=t.colorOffsets[c+1]??0;if(u!==d){e.fillStyle=i.boxes[c]??i.accent;for(let h of[!1,!0]){e.beginPath();for(let p=u;p<d;p+=1){let f=t.byColor[p]??0;if((t.count[f]??1)>1!==h)continue;let y=l(f);y&&m(f,y)}e.globalAlpha=h?Jn:1,e.fill()}}}e.globalAlpha=1,e.fillStyle=i.boxText;for(let c=0;c<t.size;c+=1){let u=l(c);if(u===null||u[1]<Yn)continue;let d=s?.names[t.name[c]??0]??"",h=t.count[c]??1,p=ve(e,h>1?`${v(h)} × ${d}`:d,u[1]-6);p!==null&&e.fillText(p,u[0]+3,U(n,t.row[c]??0)+18/2)}}function kt(e){let t=0;for(let n of e.value)t=Math.max(t,n);return t||1}function ye(e,t){return/bytes/i.test(e)?H(t):v(t)}function nr(e,t,n,r,o){let{t:i,value:s}=t;if(i.length===0)return;let l=kt(t),m=n.top+n.height-2,c=d=>m-d/l*(n.height-8),u=Math.min(r.x(o.tile?.end??o.window.end),r.right);e.beginPath(),e.moveTo(r.x(i[0]??0),m);for(let d=0;d<i.length;d+=1){let h=Math.max(r.x(i[d]??0),r.left-1),p=Math.min(d+1<i.length?r.x(i[d+1]??0):u,r.right+1),f=c(s[d]??0);e.lineTo(h,f),e.lineTo(p,f)}e.lineTo(u,m),e.closePath(),e.globalAlpha=.3,e.fillStyle=o.theme.accent,e.fill(),e.globalAlpha=1,e.strokeStyle=o.theme.accent,e.lineWidth=1,e.stroke()}function rr(e,t,n){let r=t.layout.lanes.get(e.lane);if(!r)return null;let o=Math.max(n.x(e.start),n.left-2),i=Math.min(n.x(e.end),n.right+2);return[o,U(r,e.row),Math.max(i-o,2)]}function xt(e,t,n,r,o){let i=rr(t,n,r);i&&(e.lineWidth=o,e.strokeStyle=n.theme.text,e.strokeRect(i[0],i[1]+.5,i[2],17))}function or(e,t,n,r){let o=n.layout.lanes.get(t.from.lane),i=n.layout.lanes.get(t.to.lane);if(!o||!i)return;let s=r.x(t.from.start),l=U(o,t.from.row)+18/2,m=r.x(t.to.start),c=U(i,t.to.row)+18/2,u=Math.max(20,Math.abs(c-l)/2);e.strokeStyle=n.theme.accent,e.fillStyle=n.theme.accent,e.lineWidth=1.5,e.beginPath(),e.moveTo(s,l),e.bezierCurveTo(s,l+Math.sign(c-l||1)*u,m,c-Math.sign(c-l||1)*u,m,c),e.stroke();let d=Math.sign(c-l||1);e.beginPath(),e.moveTo(m,c),e.lineTo(m-4,c-d*8),e.lineTo(m+4,c-d*8),e.closePath(),e.fill();for(let[h,p]of[[s,l],[m,c]])e.beginPath(),e.arc(h,p,3,0,2*Math.PI),e.fill()}function ir(e,t){let{theme:n,width:r}=t,o=t.scrollTop,i=o+t.height-28;e.fillStyle=n.surface,e.fillRect(0,o,220,i-o),e.textBaseline="middle";for(let s of t.layout.bands)if(!(s.top+s.height<=o||s.top>=i)){if(s.type==="rank"){e.fillStyle=n.grid,e.fillRect(0,s.top,r,24),e.font=qn,e.fillStyle=n.text;let l=`${s.collapsed?"▸":"▾"} rank ${s.rank.rank}`;e.fillText(l,8,s.top+24/2),e.font=te,e.fillStyle=n.mutedText;let m=ve(e,tt(s.rank.alignment),140);m&&e.fillText(m,76,s.top+24/2)}else{e.font=te,e.fillStyle=n.text;let l=ve(e,s.lane.label,196);l&&e.fillText(l,16,s.top+Math.min(s.height,24)/2);let m=t.tile?.counters.get(s.lane.id);if(m&&m.t.length>0){e.fillStyle=n.mutedText;let c=`max ${ye(s.lane.label,kt(m))}`;e.fillText(c,16,s.top+s.height-9)}}e.fillStyle=n.border,e.fillRect(0,s.top+s.height-1,r,1)}e.fillRect(219,o,1,i-o)}function sr(e,t,n,r){let{theme:o,width:i}=n;e.fillStyle=o.background,e.fillRect(0,0,i,28),e.fillStyle=o.border,e.fillRect(0,27,i,1),e.font=te,e.textBaseline="middle",e.fillStyle=o.mutedText,e.fillText(t.baseLabel?`from ${t.baseLabel}`:"from run start",8,28/2),t.ticks.forEach((s,l)=>{let m=Math.round(r.x(s))+.5;e.fillRect(m,22,1,5),e.fillText(t.labels[l]??"",m+3,28/2-2)})}function Tt(e,t){let{width:n,height:r,theme:o,tile:i,window:s}=t,l=Zn(t),m=yt(s.start,s.end,n-220,Vn,t.zero);e.fillStyle=o.background,e.fillRect(0,0,n,r),e.font=te,e.textBaseline="middle",e.save(),e.beginPath(),e.rect(0,28,n,r-28),e.clip(),e.translate(0,28-t.scrollTop),ir(e,t),e.save(),e.beginPath(),e.rect(220,t.scrollTop,n-220,r),e.clip(),e.fillStyle=o.grid;for(let c of m.ticks)e.fillRect(Math.round(l.x(c)),t.scrollTop,1,r);for(let c of er(t)){let u=i?.lanes.get(c.lane.id);u&&tr(e,u,c,l,t);let d=i?.counters.get(c.lane.id);d&&nr(e,d,c,l,t)}t.hovered&&xt(e,t.hovered,t,l,1),t.selected&&xt(e,t.selected,t,l,2),t.flow&&or(e,t.flow,t,l),e.restore(),e.restore(),sr(e,m,t,l),t.emptyMessage!==null&&(e.fillStyle=o.mutedText,e.textAlign="center",e.fillText(t.emptyMessage,220+(n-220)/2,68),e.textAlign="start")}var ar=250,ne=class{constructor(t){this.options=t;this.input=a("input",{type:"search",class:"search-input",placeholder:"Search events by name","aria-label":"Search events by name","data-testid":"timeline-search",value:t.initialText});let n=a("button",{type:"button","data-testid":"timeline-prev",title:"Previous match (Shift+Enter)"},"‹ Prev"),r=a("button",{type:"button","data-testid":"timeline-next",title:"Next match (Enter)"},"Next ›");n.addEventListener("click",()=>{this.step(-1)}),r.addEventListener("click",()=>{this.step(1)}),this.input.addEventListener("input",()=>{this.options.onTextChange(this.text()),clearTimeout(this.typingTimer),this.typingTimer=window.setTimeout(()=>{this.refresh()},ar)}),this.input.addEventListener("keydown",o=>{o.key==="Enter"&&(o.preventDefault(),this.step(o.shiftKey?-1:1))}),this.element=a("div",{class:"search",role:"search"},this.input,this.count,n,r)}options;element;input;count=a("span",{class:"search-count","data-testid":"timeline-search-count","aria-live":"polite"});result=null;resultText="";index=-1;inFlight=new AbortController;typingTimer=0;text(){return this.input.value.trim()}refresh(){clearTimeout(this.typingTimer),this.inFlight.abort(),this.inFlight=new AbortController;let t=this.inFlight.signal,n=this.text();return this.index=-1,n===""?(this.result=null,this.resultText="",this.showCount(),Promise.resolve()):(this.count.textContent="…",this.options.search(n,t).then(r=>{t.aborted||(this.result=r,this.resultText=n,this.showCount())},r=>{t.aborted||(this.result=null,this.count.textContent="search failed",this.count.title=r instanceof R?r.message:String(r))}))}async step(t){(this.result===null||this.resultText!==this.text())&&await this.refresh();let n=this.result?.matches??[];if(n.length===0)return;if(this.index===-1){let o=this.options.viewStart(),i=n.findIndex(l=>l.start>=o),s=i===-1?0:i;this.index=t===1?s:(s-1+n.length)%n.length}else this.index=(this.index+t+n.length)%n.length;this.showCount();let r=n[this.index];r&&this.options.onMatch(r)}showCount(){let t=this.result;this.count.title="",t===null?this.count.textContent="":t.total===0?this.count.textContent="no matches":this.index===-1?this.count.textContent=`${v(t.total)} ${t.total===1?"match":"matches"}`:this.count.textContent=`${v(this.index+1)} / ${v(t.total)}`,t!==null&&t.total>t.matches.length&&(this.count.title=`Next and previous visit the first ${v(t.matches.length)} matches in time order.`)}};function St(e,t){let n=new Uint32Array(t);for(let s=0;s<e.length;s+=1){let l=e[s]??0;n[l]=(n[l]??0)+1}let r=new Uint32Array(t+1);for(let s=0;s<t;s+=1)r[s+1]=(r[s]??0)+(n[s]??0);let o=r.slice(0,t),i=new Uint32Array(e.length);for(let s=0;s<e.length;s+=1){let l=e[s]??0;i[o[l]??0]=s,o[l]=(o[l]??0)+1}return[i,r]}function lr(e,t,n){for(let r=0;r+1<t.length;r+=1){let o=e.subarray(t[r]??0,t[r+1]??0);for(let i=1;i<o.length;i+=1)if((n[o[i]??0]??0)<(n[o[i-1]??0]??0)){o.sort((s,l)=>(n[s]??0)-(n[l]??0));break}}}function dr(e,t){let n=e.start.length,r=new Float64Array(n),o=new Float64Array(n),i=new Uint16Array(n),s=new Uint32Array(n),l=new Uint8Array(n),m=0;for(let p=0;p<n;p+=1){let f=e.start[p]??0;r[p]=f,o[p]=f+(e.dur[p]??0);let y=e.row[p]??0;i[p]=y,m=Math.max(m,y+1);let _=e.name[p]??0;s[p]=_,l[p]=t[_]??0}let[c,u]=St(i,m);lr(c,u,r);let[d,h]=St(l,40);return{size:n,start:r,end:o,row:i,name:s,count:Float64Array.from(e.count),eventId:Float64Array.from(e.id),byColor:d,colorOffsets:h,byRow:c,rowOffsets:u}}function _t(e,t){let n=Uint8Array.from(e.names,at);return{start:e.start,end:e.end,nsPerPx:e.ns_per_px,ranksKey:t,names:e.names,lanes:new Map(e.lanes.map(r=>[r.id,dr(r.boxes,n)])),counters:new Map(e.counters.map(r=>[r.id,r])),flows:e.flows}}function Rt(e,t,n,r){let o=e.rowOffsets[t],i=e.rowOffsets[t+1];if(o===void 0||i===void 0)return-1;let s=o,l=i;for(;s<l;){let u=s+l>>1;(e.start[e.byRow[u]??0]??0)<=n+r?s=u+1:l=u}let m=-1,c=1/0;for(let u=s-1;u>=Math.max(o,s-2);u-=1){let d=e.byRow[u]??0,h=e.start[d]??0,p=e.end[d]??0,f=n<h?h-n:n>p?n-p:0;f<=r&&f<c&&(m=d,c=f)}return m}var cr=60,Et=8192,ur=1.5;function At(e){return e===null?"all":e.join(",")}function Mt(e,t){if(e===null||e.ranksKey!==At(t.ranks))return!1;let{window:n,extent:r}=t,o=(n.end-n.start)/t.widthPx;return e.start<=Math.max(n.start,r.start)&&e.end>=Math.min(n.end,r.end)&&e.nsPerPx<=o*ur}function mr(e){let{window:t,extent:n}=e,r=t.end-t.start,o=r/e.widthPx,i=Math.max(0,Math.min(r/2,(Et*o-r)/2)),s=Math.floor(Math.max(n.start,t.start-i)),l=Math.ceil(Math.min(n.end,t.end+i)),m=Math.min(Et,Math.max(1,Math.round((l-s)/o)));return{start:s,end:Math.max(l,s+1),widthPx:m,ranks:e.ranks,nsPerPx:(l-s)/m,ranksKey:At(e.ranks)}}var re=class{constructor(t,n){this.run=t;this.listener=n}run;listener;timer=0;inFlight=null;want(t,n){clearTimeout(this.timer),!(Mt(n,t)||Mt(this.inFlight?.query??null,t))&&(this.timer=window.setTimeout(()=>this.fetch(t),cr))}refetch(t){clearTimeout(this.timer),this.fetch(t)}cancel(){clearTimeout(this.timer),this.inFlight?.controller.abort(),this.inFlight=null}fetch(t){this.cancel();let n=mr(t),r=new AbortController;this.inFlight={query:n,controller:r},it(this.run,n,r.signal,this.listener.onProgress).then(o=>{r.signal.aborted||(this.inFlight=null,this.listener.onTile(_t(o,n.ranksKey)))},o=>{r.signal.aborted||(this.inFlight=null,this.listener.onError(o))})}};function xe(e){return e.end-e.start}function z(e,t){let n=xe(t),r=Math.min(n,Math.max(200,xe(e))),o=Math.min(Math.max(e.start,t.start),t.end-r);return{start:o,end:o+r}}function Lt(e,t,n,r){let o=t-(t-e.start)*n,i=t+(e.end-t)*n;return z({start:o,end:i},r)}function Pt(e,t,n){return z({start:e.start+t,end:e.end+t},n)}function W(e,t,n,r){let o=Math.max(t-e,200)*n;return z({start:e-o,end:t+o},r)}function Ct(e,t,n,r){if(t>=e.start&&n<=e.end)return e;let o=xe(e);if(n-t>o*.8)return W(t,n,.1,r);let i=(t+n)/2;return z({start:i-o/2,end:i+o/2},r)}function $t(e,t){let n=Math.max(t-e,200)*.02;return{start:e-n,end:t+n}}var hr=200,pr=2,fr=1;function Nt(e,t){return e!==null&&t!==null&&e.rank===t.rank&&e.id===t.id}var oe=class{constructor(t,n){this.run=t;this.window=n.window,this.selected=n.selected,this.enabledRanks=n.enabledRanks&&new Set(n.enabledRanks);let r=this.canvas.getContext("2d",{alpha:!1});if(r===null)throw new Error("This browser cannot draw on a canvas.");this.ctx=r,this.theme=fe(),this.selected&&(this.canvas.dataset.selected=`${this.selected.rank}:${this.selected.id}`),this.search=new ne({initialText:n.search,search:(i,s)=>st(this.run,i,this.enabledRankList(),s),onMatch:i=>this.showMatch(i),onTextChange:i=>O({search:i}),viewStart:()=>this.window?.start??0}),this.tiles=new re(t,{onTile:i=>{this.tile=i,this.status.hidden=!0,this.scheduleDraw()},onProgress:i=>this.showProgress(i),onError:i=>this.showError(i)});let o=a("button",{type:"button","data-testid":"timeline-reset"},"Reset zoom");o.addEventListener("click",()=>this.setWindow(this.bounds)),this.scroller.append(this.canvas,this.spacer),this.scroller.addEventListener("scroll",()=>this.scheduleDraw()),this.element=a("div",{class:"timeline","data-testid":"timeline","data-run":t},a("div",{class:"timeline-toolbar"},this.rankToggleGroup,this.stepPicker,o,this.search.element,a("span",{class:"muted hint"},"W/S or wheel: zoom · A/D or drag: pan · Esc: deselect")),a("div",{class:"timeline-stage"},this.scroller,this.tooltip,this.status),this.details),this.attachObservers(),gt(this.canvas,{zoomAt:(i,s)=>this.zoomAt(i,s),panBy:i=>this.panBy(i),timeAreaWidth:()=>this.timeAreaWidth(),clickAt:(i,s)=>this.clickAt(i,s),hoverAt:(i,s)=>this.hoverAt(i,s),hoverEnd:()=>this.setHover(null,null),escape:()=>this.select(null,!1)})}run;element;loaded=!1;meta=null;layout={bands:[],lanes:new Map,height:0};bounds={start:0,end:1};window;enabledRanks;collapsedRanks=new Set;tile=null;selected;selectedEvent=null;flowPeer=null;hovered=null;selectionRequest=new AbortController;canvas=a("canvas",{class:"timeline-canvas",tabindex:0,"data-testid":"timeline-canvas","aria-label":"Timeline: W/S or the wheel zoom, A/D or dragging pan, click selects"});ctx;theme;scroller=a("div",{class:"timeline-scroller"});spacer=a("div",{class:"timeline-spacer"});tooltip=a("div",{class:"chart-tooltip timeline-tooltip",hidden:!0});status=a("div",{class:"timeline-status","data-testid":"timeline-status",hidden:!0});details=a("section",{class:"timeline-details","data-testid":"timeline-details","aria-live":"polite"},a("p",{class:"muted"},"Click an event to see its details."));rankToggleGroup=a("div",{class:"rank-toggles",role:"group","aria-label":"Ranks"});stepPicker=a("label",{class:"step-picker"});search;tiles;observers=[];size={width:0,height:0,dpr:1};drawPending=!1;hashTimer=0;async load(t,n){let r=await ot(this.run,t,n);t.aborted||(this.meta=r,this.loaded=!0,this.bounds=$t(r.start,r.end),this.relayout(),this.setWindow(this.window??this.bounds),this.stepPicker.replaceChildren(ct(r.steps,o=>this.setWindow(W(o.start,o.end,.02,this.bounds)))),this.tile=null,this.tiles.cancel(),this.requestTiles(!0),this.selected&&this.select(this.selected,!1),this.search.refresh())}showStep(t){let n=this.meta?.steps.find(r=>r.step===t);n&&this.setWindow(W(n.start,n.end,.02,this.bounds))}dispose(){this.tiles.cancel(),this.selectionRequest.abort();for(let t of this.observers)t.disconnect()}attachObservers(){let t=new ResizeObserver(()=>this.resize());t.observe(this.scroller);let n=new MutationObserver(()=>{this.theme=fe(),this.scheduleDraw()});n.observe(document.documentElement,{attributes:!0,attributeFilter:["data-theme"]}),this.observers.push(t,n)}enabledRankList(){return this.enabledRanks&&[...this.enabledRanks].sort((t,n)=>t-n)}isRankEnabled(t){return this.enabledRanks===null||this.enabledRanks.has(t)}relayout(){let t=this.meta;if(!t)return;let n=new Set(t.ranks.map(r=>r.rank).filter(r=>this.isRankEnabled(r)));this.layout=mt(t,n,this.collapsedRanks),this.rankToggleGroup.replaceChildren(...dt(t.ranks,r=>this.isRankEnabled(r),r=>this.toggleRank(r))),this.resizeSpacer(),this.scheduleDraw()}toggleRank(t){let n=this.meta?.ranks.map(o=>o.rank)??[],r=this.enabledRanks??new Set(n);r.has(t)?r.delete(t):r.add(t),this.enabledRanks=n.every(o=>r.has(o))?null:r,O({enabledRanks:this.enabledRankList()}),this.relayout(),this.requestTiles(!1),this.search.refresh()}toggleCollapsed(t){this.collapsedRanks.has(t)?this.collapsedRanks.delete(t):this.collapsedRanks.add(t),this.relayout(),this.requestTiles(!1)}setWindow(t){this.window=z(t,this.bounds),this.canvas.dataset.start=String(Math.round(this.window.start)),this.canvas.dataset.end=String(Math.round(this.window.end)),this.scheduleDraw(),this.requestTiles(!1),clearTimeout(this.hashTimer),this.hashTimer=window.setTimeout(()=>O({window:this.window}),hr)}requestTiles(t){let n=this.meta,r=this.window,o=this.timeAreaWidth();if(!n||!r||o<=0)return;let i=ft(this.layout);if(i.length===0)return;let s=i.length===n.ranks.length,l={window:r,widthPx:o,ranks:s?null:i,extent:{start:n.start,end:n.end}};t?this.tiles.refetch(l):this.tiles.want(l,this.tile)}timeAreaWidth(){return Math.max(0,this.size.width-220)}timeAt(t){let n=this.window??this.bounds;return n.start+(t-220)/Math.max(1,this.timeAreaWidth())*(n.end-n.start)}nsPerPx(){let t=this.window??this.bounds;return(t.end-t.start)/Math.max(1,this.timeAreaWidth())}zoomAt(t,n){let r=this.window;if(!r)return;let o=t===null?(r.start+r.end)/2:this.timeAt(t);this.navigateTo(Lt(r,o,n,this.bounds))}panBy(t){this.window&&this.navigateTo(Pt(this.window,t*this.nsPerPx(),this.bounds))}navigateTo(t){(t.start!==this.window?.start||t.end!==this.window.end)&&this.setWindow(t)}select(t,n){this.selectionRequest.abort(),this.selectionRequest=new AbortController;let r=this.selectionRequest.signal;if(Nt(t,this.selectedEvent)||(this.selectedEvent=null,this.flowPeer=null),this.selected=t,t?this.canvas.dataset.selected=`${t.rank}:${t.id}`:delete this.canvas.dataset.selected,O({selected:t}),this.scheduleDraw(),t===null){this.details.replaceChildren(a("p",{class:"muted"},"Click an event to see its details."));return}this.loadSelection(t,n,r)}async loadSelection(t,n,r){try{let o=await pe(this.run,t,r);if(r.aborted)return;if(this.selectedEvent=o,n&&this.window&&this.setWindow(Ct(this.window,o.start,o.start+o.dur,this.bounds)),this.showDetails(),this.scheduleDraw(),o.flow){if(this.flowPeer=await pe(this.run,o.flow,r),r.aborted)return;this.showDetails(),this.scheduleDraw()}}catch(o){if(r.aborted)return;this.details.replaceChildren(a("p",{class:"error",role:"alert"},`Could not load the event: ${o instanceof R?o.message:String(o)}`))}}showDetails(){let t=this.selectedEvent;t&&this.details.replaceChildren(ut({event:t,peer:this.flowPeer,zero:this.meta?.start??0,laneLabel:n=>this.laneLabel(n),onJump:n=>{this.revealRank(n.rank),this.select(n,!0)},onZoom:()=>this.setWindow(W(t.start,t.start+t.dur,.5,this.bounds))}))}laneLabel(t){for(let n of this.meta?.ranks??[]){let r=n.lanes.find(o=>o.id===t);if(r)return r.label}return t}revealRank(t){this.collapsedRanks.delete(t)&&(this.relayout(),this.requestTiles(!1))}showMatch(t){this.revealRank(t.rank),this.setWindow(W(t.start,t.start+t.dur,fr,this.bounds)),this.select({rank:t.rank,id:t.id},!1)}hitTest(t,n){if(n<28)return null;let r=ht(this.layout,n-28+this.scroller.scrollTop);if(!r)return null;if(r.type==="rank")return{rankBand:r.rank.rank};let o=this.timeAt(t),i=pt(r,n-28+this.scroller.scrollTop),s=this.tile?.lanes.get(r.lane.id),l=s&&i>=0&&t>=220?Rt(s,i,o,pr*this.nsPerPx()):-1;return{band:r,box:l,row:i,time:o}}clickAt(t,n){this.canvas.focus();let r=this.hitTest(t,n);if(r&&"rankBand"in r){this.toggleCollapsed(r.rankBand);return}let o=r&&this.tile?.lanes.get(r.band.lane.id);if(!r||!o||r.box<0){t>=220&&this.select(null,!1);return}let i=o.count[r.box]??1,s=o.start[r.box]??0,l=o.end[r.box]??0;i>1?this.setWindow(W(s,l,.1,this.bounds)):this.select({rank:r.band.rank,id:o.eventId[r.box]??-1},!1)}hoverAt(t,n){let r=this.hitTest(t,n);if(r===null)return this.setHover(null,null);if("rankBand"in r){let h=this.meta?.ranks.find(p=>p.rank===r.rankBand);return this.canvas.style.cursor="pointer",this.setHover(null,h?[`rank ${h.rank} (click to ${this.collapsedRanks.has(h.rank)?"expand":"collapse"})`,...nt(h.alignment)]:null,t,n)}this.canvas.style.cursor="";let o=r.band.lane;if(t<220)return this.setHover(null,[o.label,`rank ${r.band.rank} · ${o.kind}`],t,n);if(o.kind==="counter")return this.setHover(null,this.counterTooltip(r),t,n);let i=this.tile?.lanes.get(o.id);if(!i||r.box<0)return this.setHover(null,null);let s=i.start[r.box]??0,l=i.end[r.box]??0,m=i.count[r.box]??1,c=this.tile?.names[i.name[r.box]??0]??"",u=this.meta?.start??0,d=m>1?[`${v(m)} events`,`longest: ${c}`,`over ${b(l-s)} from ${G(s-u)}`,"click to zoom in"]:[c,`duration ${b(l-s)}`,`start ${G(s-u)}`];this.setHover({lane:o.id,row:r.row,start:s,end:l},d,t,n)}counterTooltip(t){let n=this.tile?.counters.get(t.band.lane.id);if(!n)return null;let r=-1;for(let i=0;i<n.t.length&&(n.t[i]??0)<=t.time;i+=1)r=i;let o=n.value[r];return o===void 0?null:[t.band.lane.label,ye(t.band.lane.label,o)]}setHover(t,n,r=0,o=0){if(this.hovered=t,this.scheduleDraw(),n===null){this.tooltip.hidden=!0;return}let[i,...s]=n;this.tooltip.replaceChildren(a("div",{class:"tooltip-title"},i??""),...s.map(m=>a("div",{},m))),this.tooltip.hidden=!1;let l=r+16+this.tooltip.offsetWidth>this.size.width;this.tooltip.style.left=`${l?r-12-this.tooltip.offsetWidth:r+16}px`,this.tooltip.style.top=`${o+16}px`}showProgress(t){let n=Math.round(Math.min(1,Math.max(0,t.fraction))*100);this.status.removeAttribute("role"),this.status.textContent=`Reading run files… ${n} % (${H(t.done_bytes)} of ${H(t.total_bytes)})`,this.status.hidden=!1}showError(t){let n=t instanceof R?`${t.message} (${t.code})`:String(t);this.status.setAttribute("role","alert"),this.status.textContent=`Could not load this part of the timeline: ${n}`,this.status.hidden=!1}resize(){let t=this.scroller.clientWidth,n=this.scroller.clientHeight,r=window.devicePixelRatio||1;t===this.size.width&&n===this.size.height&&r===this.size.dpr||(this.size={width:t,height:n,dpr:r},!(t===0||n===0)&&(this.canvas.style.width=`${t}px`,this.canvas.style.height=`${n}px`,this.canvas.width=Math.round(t*r),this.canvas.height=Math.round(n*r),this.resizeSpacer(),this.requestTiles(!1),this.drawNow()))}resizeSpacer(){this.spacer.style.height=`${Math.max(0,28+this.layout.height-this.size.height)}px`}scheduleDraw(){this.drawPending||(this.drawPending=!0,requestAnimationFrame(()=>this.drawNow()))}drawNow(){this.drawPending=!1;let{width:t,height:n,dpr:r}=this.size;t===0||n===0||!this.window||(this.ctx.setTransform(r,0,0,r,0,0),Tt(this.ctx,{width:t,height:n,scrollTop:this.scroller.scrollTop,window:this.window,zero:this.meta?.start??0,layout:this.layout,tile:this.tile,theme:this.theme,hovered:this.hovered,...this.selectionSpans(),emptyMessage:this.emptyMessage()}))}emptyMessage(){return this.layout.bands.length>0?null:this.meta?.ranks.length?"Every rank is hidden: turn one on with the rank buttons above.":"This run has no timeline events: no MyTimer spans and no profiler traces yet."}selectionSpans(){let t=this.selectedEvent;if(!t||!Nt(t,this.selected))return{selected:null,flow:null};let n=i=>({lane:i.lane,row:i.row,start:i.start,end:i.start+i.dur}),r=n(t),o=this.flowPeer;return o?t.kind==="runtime"?{selected:r,flow:{from:r,to:n(o)}}:{selected:r,flow:{from:n(o),to:r}}:{selected:r,flow:null}}};var V=null,ke=!1;function br(e){if(V?.run===e)return V;V?.dispose();let t=ke?he:et();return ke&&O(he),ke=!0,V=new oe(e,t),V}var Dt={id:"timeline",label:"Timeline",usesRankSelect:!1,async show({run:e,signal:t,refresh:n,onProgress:r,params:o}){let i=br(e);(n||!i.loaded)&&await i.load(t,r);let s=Number(o.step);return o.step!=null&&Number.isInteger(s)&&i.showStep(s),i.element}};var F=[Ze,Dt,qe,ze,Ke];var Te="";function Ht(e){let t=F[0];if(t===void 0)throw new Error("no dashboards registered");return F.find(n=>n.id===e)??t}function gr(e){let t=Math.round(Math.min(1,Math.max(0,e.fraction))*100),n=a("div",{class:"progress-bar"});return n.style.width=`${t}%`,a("div",{class:"progress","data-testid":"progress"},a("div",{class:"progress-track",role:"progressbar","aria-valuemin":0,"aria-valuemax":100,"aria-valuenow":t},n),a("p",{},`Reading run files… ${t} % (${H(e.done_bytes)} of ${H(e.total_bytes)})`))}function It(e,t){let n=t instanceof R?`${t.message} (${t.code})`:String(t);return a("div",{class:"error","data-testid":"error",role:"alert"},a("strong",{},e),a("p",{},n))}function vr(){return a("div",{class:"empty","data-testid":"empty"},a("h2",{},"No runs yet"),a("p",{},"This logdir holds no tb-perf runs. See the README quick start to record one with the collectors (or point TensorBoard at a torch.profiler trace directory), then press TensorBoard's reload button."))}function Ot(e){return e instanceof DOMException&&e.name==="AbortError"}var ie=class{runs=[];run;rank;dashboard;inFlight=new AbortController;runSelect=a("select",{"data-testid":"run-select","aria-label":"Run"});runStatus=a("span",{class:"badge","data-testid":"run-status"});rankSelect=a("select",{"data-testid":"rank-select","aria-label":"Rank"});rankLabel=a("label",{},"Rank ",this.rankSelect);tabs=F.map(t=>a("button",{type:"button",role:"tab",class:"tab","data-testid":`tab-${t.id}`},t.label));toolbar=a("header",{class:"toolbar",hidden:!0},a("nav",{class:"tabs",role:"tablist","aria-label":"Dashboards"},...this.tabs),a("label",{},"Run ",this.runSelect),this.runStatus,this.rankLabel);content=a("main",{class:"content"},a("p",{class:"muted"},"Loading runs…"));constructor(t){let n=A();this.run=n.get("run");let r=Number.parseInt(n.get("rank")??"",10);this.rank=Number.isInteger(r)?r:null,this.dashboard=Ht(n.get("dashboard")),this.showActiveTab(),this.tabs.forEach((o,i)=>o.addEventListener("click",()=>{let s=F[i];s===void 0||s===this.dashboard||this.open(s,{})})),this.runSelect.addEventListener("change",()=>{this.run=this.runSelect.value,this.showSelectedRun(),this.loadDashboard(this.restart(),!0)}),this.rankSelect.addEventListener("change",()=>{this.rank=this.rankSelect.value===Te?null:Number(this.rankSelect.value),this.saveSelection(),this.loadDashboard(this.restart(),!0)}),t.replaceChildren(a("div",{class:"app"},this.toolbar,this.content))}async reload(){let t=this.restart();try{this.runs=await Ee(t)}catch(n){Ot(n)||this.content.replaceChildren(It("Could not list the runs",n));return}if(this.toolbar.hidden=this.runs.length===0,this.runs.length===0){this.run=null,this.content.replaceChildren(vr());return}this.runSelect.replaceChildren(...this.runs.map(n=>a("option",{value:n.name},`${n.name} (${n.status})`))),this.runs.some(n=>n.name===this.run)||(this.run=this.runs[0]?.name??null),this.showSelectedRun(),await this.loadDashboard(t,!0)}restart(){return this.inFlight.abort(),this.inFlight=new AbortController,this.inFlight.signal}open(t,n){this.dashboard=t;let r=Number(n.rank);t.usesRankSelect&&n.rank!=null&&Number.isInteger(r)&&(this.rank=r,this.rankSelect.value=String(r)),this.showActiveTab(),this.saveSelection(),this.loadDashboard(this.restart(),!1,n)}showActiveTab(){this.tabs.forEach((t,n)=>{let r=F[n]===this.dashboard;t.setAttribute("aria-selected",String(r)),t.classList.toggle("active",r)}),this.rankLabel.hidden=!this.dashboard.usesRankSelect}selectedRun(){return this.runs.find(t=>t.name===this.run)}showSelectedRun(){let t=this.selectedRun();t&&(this.runSelect.value=t.name,this.runStatus.textContent=t.status,this.runStatus.className=`badge status-${t.status}`,this.rank!==null&&!t.ranks.includes(this.rank)&&(this.rank=null),this.fillRankSelect(t.ranks.map(n=>({rank:n}))),this.saveSelection())}fillRankSelect(t){this.rankSelect.replaceChildren(a("option",{value:Te},"All ranks"),...t.map(n=>a("option",{value:String(n.rank)},n.host?`rank ${n.rank} · ${n.host}`:`rank ${n.rank}`))),this.rankSelect.value=this.rank===null?Te:String(this.rank)}saveSelection(){let t=this.dashboard===F[0];P({run:this.run,rank:this.rank===null?null:String(this.rank),dashboard:t?null:this.dashboard.id})}async loadDashboard(t,n,r={}){let o=this.run;if(o!==null){this.content.setAttribute("aria-busy","true");try{let i=await this.dashboard.show({run:o,rank:this.rank,signal:t,refresh:n,onProgress:s=>this.content.replaceChildren(gr(s)),onRanks:s=>this.fillRankSelect(s),navigate:(s,l)=>this.open(Ht(s),l),params:r});t.aborted||this.content.replaceChildren(i)}catch(i){Ot(i)||this.content.replaceChildren(It(`Could not load run “${o}”`,i))}finally{t.aborted||this.content.removeAttribute("aria-busy")}}}};var wr="experimental.DataReloaded";function yr(e){if(typeof e!="string")return null;try{let t=JSON.parse(e);return typeof t=="object"&&t!==null&&"type"in t&&"id"in t?t:null}catch{return null}}function Wt(e){if(window.parent===window)return;let t=new MessageChannel;t.port1.onmessage=n=>{let r=yr(n.data);if(r===null||r.isReply)return;let o={type:r.type,id:r.id,payload:null,error:null,isReply:!0};t.port1.postMessage(JSON.stringify(o)),r.type===wr&&e()};try{window.parent.postMessage("experimental.bootstrap","*",[t.port2])}catch{}}var Ft=`/* Colours follow TensorBoard: white / #303030 backgrounds, orange accent. theme.ts sets data-theme. */
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
`;function Ii(){document.head.append(a("style",{},Ft)),Oe();let e=new ie(document.body);Wt(()=>{e.reload()}),e.reload()}export{Ii as render};

var z=class extends Error{constructor(n,r){super(r);this.code=n}code};function Ae(e){return typeof e=="object"&&e!==null}function oa(e){return Ae(e)&&Ae(e.progress)?e.progress:null}function ia(e,t){let n=Ae(t)?t.error:void 0;return Ae(n)&&typeof n.message=="string"?new z(String(n.code??"error"),n.message):new z("http_error",`The server answered HTTP ${e}.`)}function la(e,t){return new Promise((n,r)=>{let a=setTimeout(n,e);t.addEventListener("abort",()=>{clearTimeout(a),r(t.reason)},{once:!0})})}async function ca(e,t){try{return await fetch(e,{signal:t,headers:{Accept:"application/json"}})}catch(n){throw t.aborted?n:new z("unreachable","The TensorBoard server did not answer. Is it still running?")}}async function M(e,t,n){for(;;){let r=await ca(e,t),a=await r.json().catch(()=>null),o=r.status===202?oa(a):null;if(o){n?.(o),await la(500,t);continue}if(!r.ok)throw ia(r.status,a);if(a===null)throw new z("bad_response","The server sent a response that is not JSON.");return a}}function P(e,t={}){let n=new URLSearchParams({run:e});for(let[r,a]of Object.entries(t))a!==null&&n.set(r,String(a));return n.toString()}function Ce(e){return M("./runs",e)}function It(e,t){for(let[n,r]of Object.entries(t))r===void 0||r===!1||e.setAttribute(n,r===!0?"":String(r))}function s(e,t={},...n){let r=document.createElement(e);It(r,t);for(let a of n)a!=null&&a!==!1&&r.append(a);return r}var da="http://www.w3.org/2000/svg";function R(e,t={},...n){let r=document.createElementNS(da,e);It(r,t);for(let a of n)a!=null&&a!==!1&&r.append(a);return r}var ua=new Intl.NumberFormat("en-US");function ge(e){let t=Math.abs(e),n=t>=100?0:t>=10?1:2;return new Intl.NumberFormat("en-US",{minimumFractionDigits:n,maximumFractionDigits:n}).format(e)}function f(e){if(e==null||!Number.isFinite(e))return"—";let t=Math.abs(e);return t>=1e9?`${ge(e/1e9)} s`:t>=1e6?`${ge(e/1e6)} ms`:t>=1e3?`${ge(e/1e3)} µs`:`${Math.round(e)} ns`}var Ot=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]];function ie(e){let t=Math.max(0,...e.map(Math.abs)),[n,r]=Ot.find(([i])=>t>=i)??[1,"ns"],a=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/n:1,o=Math.min(3,Math.max(0,-Math.floor(Math.log10(a))));return i=>`${(i/n).toFixed(o)} ${r}`}function b(e){return e==null?"—":ua.format(e)}function U(e){return e==null||!Number.isFinite(e)?"—":e>0&&e<.05?"<0.1 %":`${e.toFixed(1)} %`}function Q(e){let t=["B","KB","MB","GB","TB"],n=e,r=0;for(;n>=1e3&&r<t.length-1;)n/=1e3,r+=1;return r===0?`${e} B`:`${ge(n)} ${t[r]}`}function ae(e){let[t,n]=Ot.find(([a])=>Math.abs(e)>=a)??[1,"ns"],r=Math.round(Math.log10(t));return`${(e/t).toFixed(r)} ${n}`}var Wt=[[1024**4,"TiB"],[1024**3,"GiB"],[1024**2,"MiB"],[1024,"KiB"],[1,"B"]];function S(e){if(e==null||!Number.isFinite(e))return"—";let[t,n]=Wt.find(([r])=>Math.abs(e)>=r)??[1,"B"];return t===1?`${Math.round(e)} B`:`${ge(e/t)} ${n}`}function le(e){let t=Math.max(0,...e.map(Math.abs)),[n,r]=Wt.find(([i])=>t>=i)??[1,"B"],a=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/n:1,o=Math.min(3,Math.max(0,-Math.floor(Math.log10(a))));return i=>`${(i/n).toFixed(o)} ${r}`}function ce(e){return t=>{let n=t.length>1?Math.abs((t[1]??0)-(t[0]??0)):1,r=Math.min(3,Math.max(0,-Math.floor(Math.log10(n||1))));return a=>`${a.toFixed(r)}${e}`}}function L(){return new URLSearchParams(location.hash.slice(1))}function E(e){let t=L();for(let[r,a]of Object.entries(e))a===null?t.delete(r):t.set(r,a);let n=new URL(location.href);n.hash=t.toString(),history.replaceState(history.state,"",n.href)}function Ft(e,t,n,r){let a=new URLSearchParams({baseline:e,candidate:t});return M(`./compare?${a}`,n,r)}function ye(e,t){return e.length>t?`${e.slice(0,Math.max(t-1,1))}…`:e}function Pe(e,t,n=40){let r=e.map(o=>ye(o,n)),a=new Map;r.forEach((o,i)=>a.set(o,[...a.get(o)??[],i]));for(let o of a.values()){if(o.length<2)continue;let i=o.map(c=>t[c]??""),l=ma(i);o.forEach((c,u)=>{let d=ye((i[u]??"").slice(l).trim(),16),p=e[c]??"";r[c]=d===""?ye(p,n):`${ye(p,n-d.length-3)} · ${d}`}),pa(r,o,n)}return r}function ma(e){let t=e[0]??"",n=0;for(;n<t.length&&e.every(r=>r[n]===t[n]);)n+=1;return n}function pa(e,t,n){let r=new Map;for(let a of t){let o=e[a]??"",i=(r.get(o)??0)+1;if(r.set(o,i),i>1){let l=` (${i})`;e[a]=`${ye(o,n-l.length)}${l}`}}}function ve(e){return e===null||!Number.isFinite(e)?"—":e===0?"±0":`${e>0?"+":"−"}${f(Math.abs(e))}`}function Bt(e){if(!(e===null||e===0))return e>0?"delta-worse":"delta-better"}var Ne=720,He=22,lt=150,ha=90,fa=20,ba={breakdown:"the traced steps' breakdown categories",spans:"MyTimer's top-level spans"};function zt(e,t){let n=t+He/2;return{class:"chart-label",x:e,y:n,"text-anchor":"end","dominant-baseline":"middle"}}function ct(e,t){return e.reduce((n,r)=>n+r[t],0)}function Gt(e,t){if(e.length===0)return s("p",{class:"muted","data-testid":"no-category-deltas"},"No categories to compare: the runs need traced steps, or MyTimer spans, of the same kind.");let n=[...e].sort((d,p)=>Math.abs(p.delta_ns)-Math.abs(d.delta_ns)),r=Math.max(1,...n.map(d=>Math.abs(d.delta_ns))),a=(Ne-lt-ha)/2,o=lt+a,i=n.length*He+4,l=n.map(d=>d.category),c=Pe(l,l,fa),u=R("svg",{class:"delta-chart",width:Ne,height:i,viewBox:`0 0 ${Ne} ${i}`,role:"img","aria-label":"Per-step time by category: candidate minus baseline"});return n.forEach((d,p)=>{let m=p*He+2,h=Math.abs(d.delta_ns)/r*a,v=d.delta_ns<0?o-h:o,g=d.delta_ns>0?"slower":d.delta_ns<0?"faster":"same";u.append(R("g",{"data-testid":"category-delta","data-category":d.category,"data-value":d.delta_ns},R("title",{},`${d.category}: ${f(d.baseline_ns)} → ${f(d.candidate_ns)} per step`),R("text",zt(lt-8,m),c[p]??d.category),R("rect",{class:`delta-bar delta-${g}`,x:v,y:m+3,width:Math.max(1,h),height:He-6}),R("text",zt(Ne-4,m),ve(d.delta_ns))))}),u.append(R("line",{class:"chart-axis",x1:o,x2:o,y1:0,y2:i})),s("div",{class:"table-scroll","data-testid":"category-deltas"},s("p",{class:"muted"},`Mean time per step by ${ba[t??""]??"category"}, candidate minus baseline: right of the line is slower, left is faster.`),u,s("p",{class:"muted","data-testid":"category-totals"},`All categories: ${f(ct(n,"baseline_ns"))} → ${f(ct(n,"candidate_ns"))} per step (${ve(ct(n,"delta_ns"))}).`))}function Ut(e,t,n){if(!Number.isFinite(n)||n<=0)return{page:0,pages:1,first:0,end:e};let r=Math.max(1,Math.ceil(e/n)),a=Math.min(Math.max(0,Math.trunc(t)),r-1),o=Math.min(a*n,e);return{page:a,pages:r,first:o,end:Math.min(o+n,e)}}function Kt(e,t,n){return t===0?"no rows":`rows ${n(e.first+1)}–${n(e.end)} of ${n(t)}`}var ee=50;function I(e,t,n,r){return{key:e,label:t,numeric:!0,value:n,format:a=>f(n(a)),...r===void 0?{}:{title:r}}}var ga={asc:"ascending",desc:"descending"},ya={asc:" ▲",desc:" ▼"},va={asc:"desc",desc:"asc"};function wa(e,t){return typeof e=="number"&&typeof t=="number"?e-t:String(e).localeCompare(String(t))}function ka(e,t,n){let r=n==="asc"?1:-1;return[...e].sort((a,o)=>{let i=t.value(a),l=t.value(o);return i===null||l===null?i===l?0:i===null?1:-1:r*wa(i,l)})}function xa(e){return e.numeric?"desc":"asc"}function A(e){let{columns:t,testId:n}=e,r=e.pageSize??Number.POSITIVE_INFINITY,a=e.sort,o=0,i=s("table",{class:"data-table","data-testid":n}),l=s("tr"),c=s("tbody"),u=_a(n,m=>{o+=m,p()});e.rows.length>r&&i.append(u.caption),i.append(s("thead",{},l),c);let d=()=>{l.replaceChildren(...t.map(m=>{let h=a?.key===m.key?a.direction:void 0,v=s("th",{class:m.numeric?"numeric":void 0,title:m.title,"aria-sort":h&&ga[h],"data-column":m.key});if(!a)return v.append(m.label),v;let g=h?ya[h]:"",w=s("button",{type:"button",class:"sort-button"},m.label+g);return w.addEventListener("click",()=>{let k=h===void 0?xa(m):va[h];a={key:m.key,direction:k},o=0,e.onSortChange?.(a),d(),p()}),v.append(w),v}))},p=()=>{let m=a&&t.find(g=>g.key===a?.key),h=a&&m?ka(e.rows,m,a.direction):e.rows,v=Ut(h.length,o,r);o=v.page,u.show(v,h.length),c.replaceChildren(...h.slice(v.first,v.end).map(g=>{let w=s("tr",{"data-testid":e.rowTestId,"data-name":e.rowName(g),class:e.rowClass?.(g)},...t.map(y=>{let _=y.value(g);return s("td",{class:y.numeric?"numeric":void 0,"data-column":y.key,title:y.cellTitle?.(g),"data-value":_===null?void 0:String(_)},y.render?y.render(g):y.format?y.format(g):String(_??"—"))})),k=e.onRowClick;return k&&(w.classList.add("clickable"),w.addEventListener("click",()=>k(g))),w}))};return d(),p(),i}function _a(e,t){let n=s("span",{class:"pager-range","data-testid":`${e}-range`}),r=(l,c,u)=>{let d=s("button",{type:"button","data-testid":`${e}-${u}`},l);return d.addEventListener("click",()=>t(c)),d},a=r("‹ previous",-1,"previous"),o=r("next ›",1,"next");return{caption:s("caption",{class:"pager","data-testid":`${e}-pager`},n,a,o),show:(l,c)=>{n.textContent=Kt(l,c,b),a.disabled=l.page===0,o.disabled=l.page>=l.pages-1}}}var Sa=20,Ta={baseline_ns:"new",candidate_ns:"vanished"};function Xt(e){return e.baseline_ns?e.delta_ns/e.baseline_ns:null}function Ma(e){let t=(a,o)=>({key:a,label:o,numeric:!0,value:i=>i[a],format:i=>i.status===Ta[a]?"—":f(i[a])}),n=e.calls,r=n?[{key:"baseline_calls",label:"baseline calls",numeric:!0,value:a=>n(a)[0],format:a=>b(n(a)[0])},{key:"candidate_calls",label:"candidate calls",numeric:!0,value:a=>n(a)[1],format:a=>b(n(a)[1])}]:[];return[{key:"name",label:e.noun,numeric:!1,value:e.label??e.name,cellTitle:e.name},...e.extra??[],{key:"status",label:"status",numeric:!1,value:a=>a.status},t("baseline_ns","baseline"),t("candidate_ns","candidate"),{key:"delta_ns",label:"Δ",title:"Candidate minus baseline (+ is slower)",numeric:!0,value:a=>a.delta_ns,render:a=>s("span",{class:Bt(a.delta_ns)},ve(a.delta_ns))},{key:"delta_pct",label:"Δ %",title:"The delta as a share of the baseline's time",numeric:!0,value:Xt,format:a=>{let o=Xt(a);return o===null?"—":`${o>0?"+":""}${(o*100).toFixed(1)} %`}},...r]}function Ra(e,t){let n=L(),r=n.get(`${e}sort`),a=n.get(`${e}dir`);return t.some(o=>o.key===r)&&(a==="asc"||a==="desc")?{key:r,direction:a}:{key:"delta_ns",direction:"desc"}}function De(e){if(e.rows.length===0)return s("p",{class:"muted"},`No ${e.noun}s in either run.`);let t=Ma(e),n=s("input",{type:"search",class:"search-input",placeholder:`Filter ${e.noun}s`,"aria-label":`Filter ${e.noun}s`,"data-testid":`${e.prefix}-delta-filter`}),r=s("p",{class:"muted"}),a=s("div",{class:"table-scroll"}),o=()=>{let i=n.value.trim().toLowerCase(),l=e.rows.filter(d=>i===""||e.name(d).toLowerCase().includes(i)),c=e.total>e.rows.length?`the ${b(e.rows.length)} largest changes of ${b(e.total)} ${e.noun}s`:`${b(e.rows.length)} ${e.noun}s`,u=l.length===e.rows.length?"":`${b(l.length)} match the filter, of `;r.textContent=`${e.per}; ${u}${c}.`,a.replaceChildren(A({columns:t,rows:l,testId:`${e.prefix}-delta-table`,rowTestId:`${e.prefix}-delta-row`,rowName:e.name,pageSize:Sa,sort:Ra(e.prefix,t),onSortChange:d=>E({[`${e.prefix}sort`]:d.key,[`${e.prefix}dir`]:d.direction})}))};return n.addEventListener("input",o),o(),s("div",{},s("div",{class:"controls"},n),r,a)}var dt=e=>`${e.toFixed(1)} %`,qt={peak_bytes:{label:"peak allocated",format:S},reserved_bytes:{label:"peak reserved",format:S},slope_bytes_per_step:{label:"growth per step",format:e=>`${S(e)}/step`},trace_utilization:{label:"GPU busy in the traces",format:dt},tracker_utilization:{label:"GPU utilization (NVML)",format:dt},spread:{label:"straggler spread (slowest − fastest rank, of the median)",format:e=>dt(e*100)}};function $a(e,t){return t===null?"—":t===0?"±0":`${t>0?"+":"−"}${e(Math.abs(t))}`}function ut(e,t,n,r){let a=o=>o===null?"—":n(o);return s("tr",{"data-name":e},s("td",{},t),s("td",{class:"numeric"},a(r.baseline)),s("td",{class:"numeric"},a(r.candidate)),s("td",{class:"numeric","data-column":"delta"},$a(n,r.delta)))}function Vt(e,t){return s("div",{class:"table-scroll"},s("table",{class:"data-table","data-testid":e},s("thead",{},s("tr",{},s("th",{},"metric"),s("th",{class:"numeric"},"baseline"),s("th",{class:"numeric"},"candidate"),s("th",{class:"numeric"},"Δ"))),s("tbody",{},...t)))}function mt(e,t,n){let r=Object.entries(e).filter(([,a])=>a.baseline!==null||a.candidate!==null).map(([a,o])=>{let i=qt[a]??{label:a.replaceAll("_"," "),format:String};return ut(a,i.label,i.format,o)});return r.length===0?s("p",{class:"muted","data-testid":`${t}-none`},n):Vt(`${t}-table`,r)}function jt(e){let t=qt.spread,n=e.ranks.map(i=>ut(`rank ${i.rank}`,`rank ${i.rank} median step`,f,i));if(t&&(e.spread.baseline!==null||e.spread.candidate!==null)&&n.unshift(ut("spread",t.label,t.format,e.spread)),n.length===0)return s("p",{class:"muted","data-testid":"balance-none"},"Both runs have one rank (or no matched ranks): nothing to balance.");let{baseline:r,candidate:a}=e.slowest_rank,o=r===null&&a===null?null:s("p",{class:"muted"},`Slowest rank: ${r??"—"} in the baseline, ${a??"—"} in the candidate.`);return s("div",{},Vt("balance-table",n),o)}function Y(e,t,...n){return s("section",{class:"panel","data-testid":t},s("h2",{},e),...n)}function Ie(e,t){return s("section",{class:"notice","data-testid":e,role:"status"},t)}function Ea(e,t,n){let r=document.querySelector('[data-testid="run-select"]');r&&r.value!==e&&(r.value=e,r.dispatchEvent(new Event("change"))),n("timeline",{step:t})}function La(e){let t=e.verdict.replace(" ","-"),n=i=>{let l=e[i];return s("tr",{"data-testid":`step-stats-${i}`},s("th",{},i),s("td",{class:"numeric"},b(l.steps)),s("td",{class:"numeric"},f(l.median_ns)),s("td",{class:"numeric"},f(l.p95_ns)))},[r,a]=e.ci,o=e.ratio===null||r===null||a===null?"One of the runs has fewer than two steps: no ratio to test.":`median(candidate) / median(baseline) = ${e.ratio.toFixed(3)}, ${Math.round((1-e.alpha)*100)} % bootstrap interval [${r.toFixed(3)}, ${a.toFixed(3)}].`;return s("section",{class:"panel"},s("p",{class:`compare-headline verdict-${t}`,"data-testid":"compare-headline","data-verdict":e.verdict},s("span",{class:`verdict-badge verdict-${t}`},e.verdict)," ",e.headline),s("p",{class:"muted","data-testid":"compare-ratio"},o),s("table",{class:"data-table"},s("thead",{},s("tr",{},s("th",{},"run"),s("th",{class:"numeric"},"steps"),s("th",{class:"numeric"},"median step"),s("th",{class:"numeric"},"p95 step"))),s("tbody",{},n("baseline"),n("candidate"))))}function Aa(e,t){let n=(a,o)=>{if(a===null)return null;let{run:i,step:l}=a,c=s("button",{type:"button",class:"link-button","data-testid":`timeline-link-${o}`,"data-run":i,"data-step":l},`${o} ${i}, step ${l}`);return c.addEventListener("click",()=>Ea(i,l,t)),s("li",{},c)},r=[n(e.links.baseline_step,"baseline"),n(e.links.candidate_step,"candidate")];return r.every(a=>a===null)?null:Y("Open in the Timeline","timeline-links",s("p",{class:"muted"},"A typical step of each run (nearest its median step time):"),s("ul",{class:"top-list"},...r))}function pt(e,t,n){return e.length===0?s("p",{class:"muted","data-testid":t},n):s("ul",{class:"findings","data-testid":t},...e.map(r=>s("li",{class:`finding severity-${r.severity}`,"data-testid":"compare-finding","data-kind":r.kind},s("div",{class:"finding-head"},s("span",{class:`severity-badge severity-${r.severity}`},r.severity),s("strong",{class:"finding-title"},r.title)))))}function Ca(e){let{appeared:t,disappeared:n,kept:r}=e.findings;return Y("Findings","compare-findings",s("h3",{},`Appeared in the candidate (${t.length})`),pt(t,"findings-appeared","None: the candidate has no finding the baseline lacks."),s("h3",{},`Gone from the candidate (${n.length})`),pt(n,"findings-disappeared","None: every finding of the baseline is still there."),s("h3",{},`In both runs (${r.length})`),pt(r,"findings-kept","None."))}function Yt({baseline:e,candidate:t}){return`Time per traced step and rank (the traces cover ${b(e)} and ${b(t)} such windows; a trace without steps counts whole)`}function Pa(e,t){return s("div",{"data-testid":"compare-result"},e.ranks.note?Ie("compare-ranks-note",e.ranks.note):null,La(e.step_time),Aa(e,t),Y("Where the step time changed","compare-categories",Gt(e.categories,e.category_source)),Ca(e),Y("Operators","compare-operators",De({prefix:"co",noun:"operator",per:Yt(e.per_step),rows:e.operators,total:e.operators_total,name:n=>n.name,calls:n=>[n.baseline_calls,n.candidate_calls]})),Y("Kernels","compare-kernels",De({prefix:"ck",label:n=>n.short_name,noun:"kernel",per:Yt(e.per_step),rows:e.kernels,total:e.kernels_total,name:n=>n.name,calls:n=>[n.baseline_calls,n.candidate_calls]})),Y("Modules","compare-modules",De({prefix:"cm",noun:"module",per:"Time per step and rank",rows:e.modules,total:e.modules_total,name:n=>n.path||"(model)",extra:[{key:"phase",label:"phase",numeric:!1,value:n=>n.phase}]})),Y("Memory","compare-memory",mt(e.memory,"memory","Neither run sampled memory (MemorySampler).")),Y("GPU","compare-gpu",mt(e.gpu,"gpu","Neither run has GPU kernels in traces or GpuTracker samples.")),Y("Rank balance","compare-balance",jt(e.balance)))}function Jt(e,t,n){let r=t.includes(n)?t:[...t,n];e.replaceChildren(...r.map(a=>t.includes(a)?s("option",{value:a},a):s("option",{value:a,disabled:!0},`${a} (missing)`))),e.value=n}function Na(e,t,n){if(e.length<2){let r=e.length===1?"only one":"none";return Ie("compare-problem",`Compare needs two runs; this logdir holds ${r}.`)}for(let[r,a]of[["baseline",t],["candidate",n]])if(!e.includes(a))return Ie("compare-problem",`The ${r} run “${a}” is not in this logdir; pick another.`);return t===n?Ie("compare-problem",`Baseline and candidate are the same run (“${t}”): pick two different runs.`):null}var Zt={id:"compare",label:"Compare",usesRankSelect:!1,async show({run:e,signal:t,onProgress:n,navigate:r}){let a=(await Ce(t)).map(g=>g.name),o=L(),i=o.get("cand")??e,l=o.get("base")??a.find(g=>g!==i)??i,c=s("select",{"data-testid":"compare-baseline","aria-label":"Baseline run"}),u=s("select",{"data-testid":"compare-candidate","aria-label":"Candidate run"}),d=s("button",{type:"button",class:"compare-swap","data-testid":"compare-swap"},"⇄ swap"),p=s("div",{"data-testid":"compare-body"}),m=new AbortController,h=async g=>{m.abort(),m=new AbortController,Jt(c,a,l),Jt(u,a,i);let w=AbortSignal.any([t,m.signal]);E({base:l,cand:i});let k=Na(a,l,i);if(k){p.replaceChildren(k);return}p.setAttribute("aria-busy","true");try{let y=await Ft(l,i,w,g);w.aborted||p.replaceChildren(Pa(y,r))}catch(y){if(w.aborted)return;let _=y instanceof z?`${y.message} (${y.code})`:String(y);p.replaceChildren(s("div",{class:"error","data-testid":"error",role:"alert"},s("strong",{},"Could not compare the runs"),s("p",{},_)))}finally{w.aborted||p.removeAttribute("aria-busy")}},v=g=>p.replaceChildren(s("p",{class:"muted"},`Reading run files… ${Math.round(g.fraction*100)} %`));return c.addEventListener("change",()=>{l=c.value,h(v)}),u.addEventListener("change",()=>{i=u.value,h(v)}),d.addEventListener("click",()=>{[l,i]=[i,l],h(v)}),await h(n),s("div",{class:"compare","data-testid":"compare"},s("div",{class:"compare-pickers"},s("label",{},"Baseline ",c),d,s("label",{},"Candidate ",u)),p)}};var O={top:10,right:16,bottom:38,left:68},Ha=90,Da=40;function Oe(e,t,n,r){let o=(t-e||Math.abs(t)||1)/Math.max(1,n),i=10**Math.floor(Math.log10(o)),l=[1,2,5,10].map(p=>p*i).find(p=>p>=o)??10*i;r&&(l=Math.max(1,Math.round(l)));let c=Math.floor(e/l)*l,u=Math.max(Math.ceil(t/l)*l,c+l),d=[];for(let p=0;c+p*l<=u+l/2;p+=1)d.push(Number((c+p*l).toPrecision(12)));return{min:c,max:u,ticks:d}}function tn(e,t){let n=0,r=e.length;for(;n<r;){let a=n+r>>1;(e[a]??1/0)<t?n=a+1:r=a}return n}function Ia(e,t){let n=null;for(let{x:r}of e){let a=tn(r,t);for(let o of[r[a-1],r[a]])o!==void 0&&(n===null||Math.abs(o-t)<Math.abs(n-t))&&(n=o)}return n}function Qt(e){let t=1/0,n=-1/0;for(let r of e)r<t&&(t=r),r>n&&(n=r);return[t,n]}function*en(e,t){for(let n of e)yield*n[t]}function Oa(e,t,n){let{series:r,height:a}=e,o=t-O.left-O.right,i=a-O.top-O.bottom,[l,c]=Qt(en(r,"x")),[,u]=Qt(en(r,"y")),d=Oe(l,c,o/Ha,!0),p=Oe(0,u,i/Da,!1),m=T=>O.left+(T-d.min)/(d.max-d.min)*o,h=T=>O.top+(1-(T-p.min)/(p.max-p.min))*i,v=O.top+i,g=R("svg",{width:t,height:a,class:"chart-svg",role:"img"}),w=e.yTickFormat(p.ticks);for(let T of p.ticks){let $=h(T).toFixed(1);g.append(R("line",{class:"chart-grid",x1:O.left,x2:t-O.right,y1:$,y2:$}),R("text",{class:"chart-tick",x:O.left-6,y:$,"text-anchor":"end","dominant-baseline":"middle"},w(T)))}for(let T of d.ticks)g.append(R("text",{class:"chart-tick",x:m(T).toFixed(1),y:v+16,"text-anchor":"middle"},e.formatX(T)));if(g.append(R("line",{class:"chart-axis",x1:O.left,x2:t-O.right,y1:v,y2:v}),R("text",{class:"chart-label",x:O.left+o/2,y:a-4,"text-anchor":"middle"},e.xLabel)),e.markers?.length){let T=R("g",{class:"chart-markers","data-testid":`${e.testId}-markers`});for(let $ of e.markers){if($<d.min||$>d.max)continue;let C=m($).toFixed(1);T.append(R("line",{class:"chart-mark",x1:C,x2:C,y1:O.top,y2:v}))}g.append(T)}for(let T of r){let $=T.x.map((C,D)=>`${m(C).toFixed(1)},${h(T.y[D]??0).toFixed(1)}`);g.append($.length===1?R("circle",{cx:m(T.x[0]??0),cy:h(T.y[0]??0),r:3,fill:T.color,"data-series":T.label}):R("polyline",{class:T.dashed?"chart-line chart-dashed":"chart-line",points:$.join(" "),stroke:T.color,"data-series":T.label}))}let k=R("line",{class:"chart-guide",y1:O.top,y2:v,visibility:"hidden"}),y=R("g"),_=R("rect",{x:O.left,y:O.top,width:o,height:i,class:"chart-hover"});g.append(k,y,_);let B=()=>{k.setAttribute("visibility","hidden"),y.replaceChildren(),n.hidden=!0};return _.addEventListener("pointerleave",B),_.addEventListener("pointermove",T=>{let $=g.getBoundingClientRect().left,C=d.min+(T.clientX-$-O.left)/o*(d.max-d.min),D=Ia(r,C);if(D===null)return B();let se=[];y.replaceChildren();for(let j of r){let oe=tn(j.x,D),x=j.y[oe];j.x[oe]!==D||x===void 0||(y.append(R("circle",{cx:m(D),cy:h(x),r:3.5,fill:j.color,class:"chart-marker"})),se.push(s("div",{class:"tooltip-row"},s("span",{class:"swatch",style:`background:${j.color}`}),`${j.label}: ${e.formatY(x)}`)))}k.setAttribute("x1",m(D).toFixed(1)),k.setAttribute("x2",m(D).toFixed(1)),k.setAttribute("visibility","visible"),n.replaceChildren(s("div",{class:"tooltip-title"},`${e.xLabel} ${e.formatX(D)}`),...se),n.hidden=!1;let X=12,Le=m(D)+X+n.offsetWidth>t;n.style.left=`${Le?m(D)-X-n.offsetWidth:m(D)+X}px`,n.style.top=`${O.top}px`}),g}function K(e){let t=s("div",{class:"chart-tooltip",role:"tooltip","data-testid":`${e.testId}-tooltip`});t.hidden=!0;let n=s("div",{class:"chart-plot",style:`min-height:${e.height}px`},t),r=s("ul",{class:"chart-legend"},...e.series.map(o=>s("li",{},s("span",{class:"swatch",style:`background:${o.color}`}),o.label)),e.markers?.length&&e.markerLabel?s("li",{},s("span",{class:"swatch chart-mark-swatch"}),e.markerLabel):null),a=0;return new ResizeObserver(()=>{let o=n.clientWidth;o===0||o===a||(a=o,n.replaceChildren(Oa(e,o,t),t))}).observe(n),s("figure",{class:"chart","data-testid":e.testId},n,r)}function We(e,t,n,r){return{key:e,label:t,title:n,numeric:!0,value:r,format:a=>{let o=r(a);return U(o===null?null:o*100)}}}var Wa=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"device",label:"GPU",numeric:!0,value:e=>e.device},{key:"name",label:"name",numeric:!1,value:e=>e.name,format:e=>e.name??"—"},{key:"memory_bytes",label:"memory",numeric:!0,value:e=>e.memory_bytes,format:e=>S(e.memory_bytes)},{key:"compute_capability",label:"compute capability",numeric:!1,value:e=>e.compute_capability,format:e=>e.compute_capability??"—"},{key:"sm_count",label:"SMs",numeric:!0,value:e=>e.sm_count,format:e=>b(e.sm_count)},We("utilization","GPU utilization","Share of the step windows in which some kernel runs on this GPU",e=>e.utilization),We("sm_efficiency","est. SM efficiency","Share of the SMs busy over the step windows: the running kernels' blocks per SM, capped at 1",e=>e.sm_efficiency),We("occupancy","est. achieved occupancy","Kernel-time-weighted mean of the kernels' est. achieved occupancy (trace args)",e=>e.occupancy),We("tensor_core_share","Tensor Cores","Share of kernel time in kernels that use Tensor Cores (guessed from kernel names)",e=>e.tensor_core_share)];function Fe(e){return e.length===0?null:s("section",{class:"panel","data-testid":"gpu-summary"},s("h2",{},"GPU summary"),s("p",{class:"muted"},"From the traces: each device's properties, and its kernels over the step windows (torch-tb-profiler's definitions; docs/ANALYSIS.md)."),s("div",{class:"table-scroll"},A({columns:Wa,rows:e,testId:"gpu-summary-table",rowTestId:"gpu-summary-row",rowName:t=>`${t.rank}/${t.device}`})))}var ue=16,dn=[["step_time","Step time"],["collective_wait","Collective wait"],["memory","Memory"]],de=56,Fa=18,Ba=640,za=14,nn=8,ke=["#440154","#3b528b","#21918c","#5ec962","#fde725"];function un(e,t,n,r){return M(`./rank_heatmap?${P(e,{metric:t})}`,n,r)}var rn=5,an=3;function me(e,t,n,r=new Set){if(e.length<=ue)return{charted:[...e],note:null};let a=e.filter(u=>t(u)!==null).sort((u,d)=>(t(u)??0)-(t(d)??0)),o=new Set([...a.slice(-rn),...a.slice(0,an)].map(u=>u.rank));for(let u of r)o.add(u);let i=e.filter(u=>o.has(u.rank)),l=r.size>0?" and those a finding names":"",c=s("p",{class:"muted","data-testid":"charted-ranks"},`Charted: ${i.length} of ${e.length} ranks, the ${rn} highest and ${an} lowest by ${n}${l}. Pick a rank in the toolbar to chart another.`);return{charted:i,note:c}}var sn=4;async function mn(e,t,n){let r=["step_time","collective_wait"],o=(await Promise.allSettled(r.map(l=>un(e,l,n)))).flatMap(l=>l.status==="fulfilled"?l.value.outlier_ranks:[]).sort((l,c)=>Math.abs(c.z)-Math.abs(l.z)).map(l=>l.rank),i=new Set;for(let l of o)i.size<sn-1&&t.includes(l)&&i.add(l);for(let l of t){if(i.size>=sn)break;i.add(l)}return[...i]}function on(e){return dn.some(([t])=>t===e)}function ln(e){let t=Number.parseInt(e.slice(1),16);return[t>>16&255,t>>8&255,t&255]}function Ga(e){let t=Math.min(Math.max(e,0),1)*(ke.length-1),n=Math.min(Math.floor(t),ke.length-2),r=ln(ke[n]??"#000000"),a=ln(ke[n+1]??"#000000");return`rgb(${r.map((i,l)=>Math.round(i+(t-n)*((a[l]??0)-i))).join(",")})`}function we(e,t){return e.unit==="bytes"?S(t):f(t)}function Ua(e,t){let n=e.first_steps[t],r=e.last_steps[t];return n===r?`step ${n}`:`steps ${n}–${r}`}function cn(e){let t=e.slice(0,nn).join(", ");return e.length>nn?`${t}, …`:t}var Be=class{constructor(t,n,r){this.run=t;this.navigate=n;this.onProgress=r;let a=L().get("hm");this.metric=on(a)?a:"step_time";let o=s("select",{"data-testid":"heatmap-metric","aria-label":"Heatmap metric"},...dn.map(([i,l])=>s("option",{value:i,selected:i===this.metric},l)));o.addEventListener("change",()=>{on(o.value)&&(this.metric=o.value,E({hm:this.metric}),this.load())}),this.openButton.addEventListener("click",()=>this.navigate("timeline",{ranks:[...this.picked].sort((i,l)=>i-l).join(",")})),this.canvas.addEventListener("mousemove",i=>this.hover(i)),this.canvas.addEventListener("mouseleave",()=>this.tooltip.hidden=!0),this.canvas.addEventListener("click",i=>{let l=this.cellAt(i);l&&this.toggle(l.rank)}),this.element=s("section",{class:"panel heatmap","data-testid":"heatmap-panel"},s("h2",{},"Ranks × steps"),s("p",{class:"muted"},"Too many ranks for one row each: one line of cells per rank. Click cells or outlier ranks to pick ranks, then open them in the Timeline."),s("label",{class:"heatmap-metric"},"Metric ",o),this.body,s("div",{class:"picked"},s("h3",{},"Picked ranks"),this.pickedList,this.openButton)),this.renderPicked(),new ResizeObserver(()=>{this.body.clientWidth!==this.drawnWidth&&this.draw()}).observe(this.body)}run;navigate;onProgress;element;metric;answer=null;picked=new Set;request=new AbortController;canvas=s("canvas",{class:"heatmap-canvas","data-testid":"rank-heatmap"});tooltip=s("div",{class:"chart-tooltip",hidden:!0,"data-testid":"heatmap-tooltip"});body=s("div",{class:"heatmap-body"});pickedList=s("div",{class:"picked-ranks","data-testid":"picked-ranks"});openButton=s("button",{type:"button","data-testid":"open-picked-timeline",disabled:!0},"Open picked ranks in the Timeline");layout={cell:1,row:1};drawnWidth=0;async load(){this.request.abort(),this.request=new AbortController;let t=this.request.signal;this.body.replaceChildren(s("p",{class:"muted"},"Loading…"));try{let n=await un(this.run,this.metric,t,this.onProgress);if(t.aborted)return;this.answer=n,this.renderBody()}catch(n){if(t.aborted)return;this.body.replaceChildren(s("p",{class:"error",role:"alert"},String(n.message)))}}renderBody(){let t=this.answer;if(!t)return;if(t.ranks.length===0||t.min===null||t.max===null){this.body.replaceChildren(s("p",{class:"muted","data-testid":"heatmap-empty"},t.reason??"No values."));return}let n=t.bucket>1?` Each column is ${t.metric==="memory"?"the largest value":"the mean"} of ${t.bucket} consecutive steps (${t.steps_total} steps).`:"",r=s("div",{class:"heatmap-stage"},this.canvas,this.tooltip);this.body.replaceChildren(s("p",{class:"muted"},`${t.ranks.length} ranks, from ${t.source}.${n}`),r,this.legend(t),this.outliers(t)),this.draw()}legend(t){let n=t.min??0,r=t.max??0,a=`linear-gradient(to right, ${ke.join(", ")})`;return s("div",{class:"heatmap-legend","data-testid":"heatmap-legend"},s("span",{},we(t,n)),s("span",{class:"heatmap-gradient",style:`background: ${a}`}),s("span",{},we(t,r)),s("span",{class:"heatmap-missing"}),s("span",{class:"muted"},"no value"))}outliers(t){let n=t.outlier_ranks.map(a=>{let o=s("button",{type:"button",class:"link-button","data-rank":a.rank},`rank ${a.rank}`);o.addEventListener("click",()=>this.toggle(a.rank));let i=a.steps.length?`; stands out in steps ${cn(a.steps)}`:"";return s("li",{"data-testid":"outlier-rank","data-rank":a.rank},o,` median ${we(t,a.median)} vs ${we(t,a.typical)} typical (${a.direction}, z ${a.z.toFixed(1)})${i}`)}),r=t.outlier_steps.length?s("p",{"data-testid":"outlier-steps"},`Steps that stand out for every rank: ${cn(t.outlier_steps)}`):null;return s("div",{class:"heatmap-outliers"},s("h3",{},"Outlier ranks"),n.length?s("ul",{"data-testid":"outlier-ranks"},...n):s("p",{class:"muted","data-testid":"outlier-ranks-none"},"No rank stands out on this metric."),r)}toggle(t){this.picked.has(t)?this.picked.delete(t):this.picked.add(t),this.renderPicked(),this.draw()}renderPicked(){let t=[...this.picked].sort((n,r)=>n-r);this.pickedList.replaceChildren(...t.length?t.map(n=>{let r=s("button",{type:"button",class:"rank-toggle","aria-pressed":"true","data-rank":n,title:`Unpick rank ${n}`},`rank ${n} ×`);return r.addEventListener("click",()=>this.toggle(n)),r}):[s("span",{class:"muted"},"None yet.")]),this.openButton.disabled=t.length===0}draw(){let t=this.answer;if(!t||t.min===null||t.max===null)return;let n=t.ranks.length,r=t.first_steps.length;this.drawnWidth=this.body.clientWidth;let a=Math.max(320,(this.body.clientWidth||900)-8),o=Math.max(1,Math.floor((a-de)/Math.max(r,1))),i=Math.max(1,Math.min(za,Math.floor(Ba/n)));this.layout={cell:o,row:i};let l=window.devicePixelRatio||1,c=de+o*r,u=i*n+Fa;this.canvas.width=Math.round(c*l),this.canvas.height=Math.round(u*l),this.canvas.style.width=`${c}px`,this.canvas.style.height=`${u}px`,this.canvas.dataset.rows=String(n),this.canvas.dataset.columns=String(r),this.canvas.dataset.metric=t.metric;let d=this.canvas.getContext("2d");if(!d)return;let p=getComputedStyle(document.documentElement),m=w=>p.getPropertyValue(w).trim()||"#888";d.setTransform(l,0,0,l,0,0),d.fillStyle=m("--bg"),d.fillRect(0,0,c,u);let h=Math.max(t.max-t.min,1);for(let w=0;w<n;w++){let k=t.values[w]??[];for(let y=0;y<r;y++){let _=k[y];d.fillStyle=_==null?m("--grid"):Ga((_-t.min)/h),d.fillRect(de+y*o,w*i,o,i)}}d.font="10px sans-serif",d.textBaseline="middle";let v=Math.max(1,Math.ceil(12/i));for(let w=0;w<n;w++){let k=t.ranks[w]??0;this.picked.has(k)&&(d.fillStyle=m("--accent"),d.fillRect(de-6,w*i,4,Math.max(i,2))),w%v===0&&(d.fillStyle=m("--fg-muted"),d.fillText(String(k),2,w*i+Math.max(i,10)/2))}d.textBaseline="top",d.fillStyle=m("--fg-muted");let g=Math.max(1,Math.ceil(48/o));for(let w=0;w<r;w+=g)d.fillText(String(t.first_steps[w]),de+w*o,n*i+4)}cellAt(t){let n=this.answer;if(!n)return null;let r=this.canvas.getBoundingClientRect(),a=t.clientX-r.left-de,o=t.clientY-r.top,i=Math.floor(a/this.layout.cell),l=Math.floor(o/this.layout.row),c=n.ranks[l];return a<0||i>=n.first_steps.length||c===void 0?null:{rank:c,row:l,column:i}}hover(t){let n=this.answer,r=this.cellAt(t);if(!n||!r){this.tooltip.hidden=!0;return}let a=n.values[r.row]?.[r.column];this.tooltip.replaceChildren(s("div",{class:"tooltip-title"},`rank ${r.rank} · ${Ua(n,r.column)}`),s("div",{},a==null?"no value":we(n,a))),this.tooltip.hidden=!1;let o=this.canvas.getBoundingClientRect();this.tooltip.style.left=`${t.clientX-o.left+12}px`,this.tooltip.style.top=`${t.clientY-o.top+12}px`}};function ht(e){document.documentElement.dataset.theme=e?"dark":"light"}function Ka(){if(window.parent===window)return null;try{return window.parent.document.body}catch{return null}}function hn(){let e=Ka();if(e){let n=()=>ht(e.classList.contains("dark-mode"));n(),new MutationObserver(n).observe(e,{attributes:!0,attributeFilter:["class"]});return}let t=window.matchMedia("(prefers-color-scheme: dark)");ht(t.matches),t.addEventListener("change",n=>ht(n.matches))}var pn=["#4e79a7","#f28e2b","#e15759","#76b7b2","#59a14f","#edc948","#b07aa1","#ff9da7","#9c755f","#bab0ac"];function G(e){return pn[Math.max(0,e)%pn.length]??"#888"}function fn(e,t,n,r){return M(`./gpu?${P(e,{rank:t})}`,n,r)}var Xa=[{value:"util",title:"GPU utilization (share of time a kernel ran, NVML)",testId:"gpu-util-chart",format:e=>`${e.toFixed(1)} %`,ticks:ce(" %")},{value:"mem_used",title:"GPU memory used (dashed: the device's total)",testId:"gpu-memory-chart",format:S,ticks:le},{value:"power_w",title:"Power",testId:"gpu-power-chart",format:e=>`${e.toFixed(1)} W`,ticks:ce(" W")},{value:"sm_clock_mhz",title:"SM clock",testId:"gpu-clock-chart",format:e=>`${e.toFixed(0)} MHz`,ticks:ce(" MHz")},{value:"temp_c",title:"Temperature",testId:"gpu-temp-chart",format:e=>`${e.toFixed(0)} °C`,ticks:ce(" °C")}];function bt(e,t){let n={x:[],y:[]};return t?.forEach((r,a)=>{let o=e[a];r!==null&&o!==void 0&&(n.x.push(o),n.y.push(r))}),n}function bn(e,t,...n){return s("section",{class:"panel","data-testid":t},s("h2",{},e),...n)}function gn(e){let t=e.find(r=>r.steps.start_ns.length>0);if(!t)return{marks:[],label:""};let n=t.steps.every>1?`every ${t.steps.every}th `:"";return{marks:t.steps.start_ns,label:`${n}step start (rank ${t.rank})`}}function qa(e,t,n){let r=`GPU ${t.index}${t.name?` ${t.name}`:""}`;return n?`rank ${e.rank} ${r}`:r}function Va(e,t){let n=t.length>1,r=[],a=0;for(let l of t)for(let c of l.devices){let{x:u,y:d}=bt(c.t_ns,c[e.value]);if(u.length===0)continue;let p=qa(l,c,n),m=G(a);if(a+=1,r.push({label:p,color:m,x:u,y:d}),e.value==="mem_used"){let h=bt(c.t_ns,c.mem_total);h.x.length&&r.push({...h,label:`${p} total`,color:m,dashed:!0})}}if(r.length===0)return null;let{marks:o,label:i}=gn(t);return bn(e.title,e.testId,K({series:r,height:200,xLabel:"time since the first sample",formatX:f,formatY:e.format,yTickFormat:e.ticks,testId:`${e.testId}-plot`,markers:o,markerLabel:i}))}function ja(e){let t=e.length>1,{marks:n,label:r}=gn(e),a=(o,i,l,c,u)=>{let d=e.map((p,m)=>({rank:p,i:m,...bt(p.t_ns,p[o])})).filter(p=>p.x.length>0).map(p=>({label:t?`rank ${p.rank.rank}`:"this process",color:G(p.i),x:p.x,y:p.y}));return d.length===0?null:bn(i,l,K({series:d,height:180,xLabel:"time since the first sample",formatX:f,formatY:c,yTickFormat:u,testId:`${l}-plot`,markers:n,markerLabel:r}))};return[a("cpu_pct","Process CPU use (% of one core; DataLoader workers not included)","cpu-chart",o=>`${o.toFixed(1)} %`,ce(" %")),a("rss","Process resident memory (RSS)","cpu-rss-chart",S,le)].filter(o=>o!==null)}function Ya(e){if(e.gpu_reason!==null)return s("section",{class:"notice","data-testid":"gpu-reason",role:"status"},s("strong",{},"No GpuTracker samples: "),`${e.gpu_reason}.`,e.ranks.length?" The process side is shown below.":"");let t=e.ranks.filter(n=>n.gpu_reason!==null);return t.length===0?null:s("section",{class:"notice","data-testid":"gpu-rank-reasons",role:"status"},s("strong",{},"Some ranks have no GPU samples: "),t.map(n=>`rank ${n.rank}: ${n.gpu_reason}`).join("; "))}function ft(e){let t=(e??[]).filter(n=>n!==null);return t.length?t.reduce((n,r)=>n+r,0)/t.length:null}function Ja(e){return ft(e.devices.map(t=>ft(t.util)))??ft(e.cpu_pct)}function Za(e){let t=e.ranks.some(i=>i.devices.length>0),{charted:n,note:r}=me(e.ranks,Ja,t?"mean GPU utilization":"mean CPU use"),a=Xa.map(i=>Va(i,n)).filter(i=>i!==null),o=n.length===0?s("p",{class:"muted","data-testid":"no-system"},"Start collectors.GpuTracker(timer.writer) in the training processes to sample the GPUs and the process about once a second."):null;return s("div",{class:"gpu","data-testid":"gpu"},Fe(e.gpus),Ya(e),r,...a,...ja(n),o)}var yn={id:"gpu",label:"GPU",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){return Za(await fn(e,t,n,r))}};function xe(e,t,n,r,a,o={}){let i=o.q?o.q:null,l=o.groupBy==="operator"?"operator":null;return M(`./kernels?${P(e,{rank:t,limit:n,q:i,group_by:l})}`,r,a)}var vn=1e3,_e=(e,t,n="")=>e===null?"—":`${e.toFixed(t)}${n}`,Qa=250,wn={key:"name",label:"kernel",title:"The kernel's function name; hover for its full name, click the row for details",numeric:!1,value:e=>e.short_name,cellTitle:e=>e.name},es={key:"operator",label:"launched by",title:"The operator around the kernel's launch (— where the trace does not say)",numeric:!1,value:e=>e.operator?e.operator:null,cellTitle:e=>e.operator??""},kn=[{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>b(e.calls)},{key:"total_ns",label:"total",numeric:!0,value:e=>e.total_ns,format:e=>f(e.total_ns)},{key:"mean_ns",label:"mean",numeric:!0,value:e=>e.mean_ns,format:e=>f(e.mean_ns)},{key:"max_ns",label:"max",numeric:!0,value:e=>e.max_ns,format:e=>f(e.max_ns)},{key:"pct_of_kernel_time",label:"% of GPU time",numeric:!0,value:e=>e.pct_of_kernel_time,format:e=>_e(e.pct_of_kernel_time,1," %")},{key:"tensor_cores",label:"Tensor Cores",title:"Guessed from the kernel's name (docs/ANALYSIS.md)",numeric:!1,value:e=>e.tensor_cores?"yes":"no"},{key:"mean_est_occupancy_pct",label:"est. occupancy",numeric:!0,value:e=>e.mean_est_occupancy_pct,format:e=>_e(e.mean_est_occupancy_pct,1," %")},{key:"est_sm_efficiency",label:"est. SM efficiency",numeric:!0,value:e=>e.est_sm_efficiency,format:e=>_e(e.est_sm_efficiency===null?null:e.est_sm_efficiency*100,1," %")}];function ze(e,t,n){return{key:e,label:t,title:n,numeric:!0,value:r=>r[e]??null,format:r=>_e(r[e]??null,1," %")}}var ts=[{key:"ncu_launches",label:"NCU launches",title:"Launches Nsight Compute profiled under this name",numeric:!0,value:e=>e.ncu_launches??0,format:e=>b(e.ncu_launches??0)},{key:"ncu_duration_ns",label:"NCU duration",title:"Mean gpu__time_duration of those launches",numeric:!0,value:e=>e.ncu_duration_ns??null,format:e=>f(e.ncu_duration_ns??null)},ze("ncu_sm_throughput_pct","SM throughput","Compute (SM) throughput, % of peak (mean over launches)"),ze("ncu_memory_throughput_pct","memory throughput","Memory throughput, % of peak (mean over launches)"),ze("ncu_achieved_occupancy_pct","achieved occupancy","Achieved occupancy, % (mean over launches)"),ze("ncu_theoretical_occupancy_pct","theoretical occupancy","Theoretical occupancy, % (mean over launches)"),{key:"ncu_registers_per_thread",label:"registers / thread",numeric:!0,value:e=>e.ncu_registers_per_thread??null,format:e=>_e(e.ncu_registers_per_thread??null,0)},{key:"ncu_match",label:"NCU match",title:"How the NCU kernel name matched a trace kernel name (docs/HTTP_API.md)",numeric:!1,value:e=>e.ncu_match??""}];function ns(e){let t=[s("p",{class:"muted","data-testid":"ncu-summary"},`Nsight Compute: ${b(e.launches)} launches from ${e.files.join(", ")}; ${b(e.matched_kernels)} kernel names matched the trace's.`)];for(let[n,r]of[[e.unmatched,"match no kernel of the trace"],[e.ambiguous,"match several kernels of the trace (ambiguous)"]])n.length>0&&t.push(s("p",{class:"muted","data-testid":"ncu-unmatched"},`${b(n.length)} NCU kernel(s) ${r}: ${n.join("; ")}`));return t}function rs(e){let t=s("span",{class:"muted","data-testid":"kernel-copy-status"}),n=s("button",{type:"button","data-testid":"kernel-copy"},"Copy full name");return n.addEventListener("click",()=>{navigator.clipboard.writeText(e.name).then(()=>{t.textContent="copied"},r=>{t.textContent=`could not copy: ${String(r)}`})}),s("div",{class:"kernel-details","data-testid":"kernel-details"},s("h3",{},e.short_name),s("code",{class:"full-name","data-testid":"kernel-full-name"},e.name),e.operator?s("p",{class:"muted"},`Launched by ${e.operator}`):null,s("p",{},n," ",t))}function as(e){if(e.total_rows===0)return e.empty_reason??gt;let t=e.group_by==="operator"?"kernel and operator pairs":"kernels",n=e.q===null?"":` matching "${e.q}" (of ${b(e.kernels)})`,r=e.total_rows>e.rows.length?`; the ${b(e.rows.length)} longest are listed`:"";return`${b(e.total_rows)} ${t}${n}${r}.`}function ss(e){let t=L(),n=t.get("ksort"),r=t.get("kdir");return e.some(a=>a.key===n)&&(r==="asc"||r==="desc")?{key:n,direction:r}:{key:"total_ns",direction:"desc"}}var gt="No GPU kernels in this run's traces.";function os(e,t){if(e.length===0)return s("p",{class:"muted"},t??gt);let n=e.flatMap((r,a)=>{let o=BigInt(r.start_ns[0]??"0"),i=r.start_ns.map(c=>Number(BigInt(c)-o)),l=`rank ${r.rank} GPU ${r.device}`;return[{label:`${l} utilization`,color:G(2*a),x:i,y:r.utilization.map(c=>c*100)},{label:`${l} est. SM efficiency`,color:G(2*a+1),x:i,y:r.est_sm_efficiency.map(c=>c*100)}]});return K({series:n,height:220,xLabel:"time from the trace's start",formatX:f,formatY:r=>`${r.toFixed(1)} %`,yTickFormat:()=>r=>`${r} %`,testId:"gpu-utilization-chart"})}var xn={id:"kernels",label:"Kernels",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let a=L(),o=s("input",{type:"search",class:"search-input",placeholder:"Search kernels","aria-label":"Search kernels","data-testid":"kernel-search",value:a.get("kq")??""}),i=s("select",{"aria-label":"Group kernels by","data-testid":"kernel-group"},s("option",{value:"name"},"by name"),s("option",{value:"operator"},"by name and launching operator"));i.value=a.get("kgroup")==="operator"?"operator":"name";let l=s("p",{class:"muted","data-testid":"kernel-caption"}),c=s("div"),u=s("div",{class:"table-scroll"}),d=s("div"),p=()=>i.value==="operator"?"operator":"name",m=y=>{let _=y.ncu?[...kn,...ts]:kn,B=y.group_by==="operator"?[wn,es,..._]:[wn,..._];l.textContent=as(y),c.replaceChildren(...y.ncu?ns(y.ncu):[]),d.replaceChildren(),u.replaceChildren(y.rows.length===0?s("p",{class:"muted","data-testid":"kernels-empty"},y.empty_reason??gt):A({columns:B,rows:y.rows,testId:"kernel-table",rowTestId:"kernel-row",rowName:T=>T.name,sort:ss(B),onSortChange:T=>E({ksort:T.key,kdir:T.direction}),pageSize:ee,onRowClick:T=>d.replaceChildren(rs(T))}))},h=new AbortController,v=()=>{h.abort(),h=new AbortController;let y=o.value.trim();E({kq:y===""?null:y,kgroup:p()==="operator"?"operator":null}),xe(e,t,vn,h.signal,r,{q:y,groupBy:p()}).then(m,_=>{_ instanceof DOMException&&_.name==="AbortError"||(l.textContent=`Could not load kernels: ${String(_)}`)})},g;o.addEventListener("input",()=>{clearTimeout(g),g=setTimeout(v,Qa)}),i.addEventListener("change",v);let w=await xe(e,t,vn,n,r,{q:o.value.trim(),groupBy:p()});m(w);let k=w.devices.map(y=>`rank ${y.rank} GPU ${y.device}: ${y.tensor_core_pct.toFixed(1)} % of kernel time on Tensor Cores (by name)`);return s("div",{class:"overview","data-testid":"kernels"},s("section",{class:"panel"},s("h2",{},"GPU utilization and est. SM efficiency"),os(w.devices,w.empty_reason),...k.map(y=>s("p",{class:"muted"},y))),s("section",{class:"panel"},s("h2",{},"Kernels"),s("div",{class:"controls"},o,i),l,c,d,u))}};var is={overview:"Overview",timeline:"Timeline",operators:"Operators",kernels:"Kernels",memory:"Memory",gpu:"GPU",modules:"Modules",python:"Python"};function ls(e,t){return typeof e!="number"?String(e):t==="ns"?f(e):t==="fraction"?`${(e*100).toFixed(1)} %`:t==="x"?`${e.toFixed(2)}×`:t==="%"?`${e.toFixed(1)} %`:t==="bytes"?S(e):t==="bytes/step"?`${S(e)} per step`:t==="step"?`step ${e}`:t?`${Number.isInteger(e)?b(e):e.toPrecision(3)} ${t}`:String(e)}function cs(e,t){let n=e.view.tab,r=s("button",{type:"button",class:"link-button","data-testid":"finding-link","data-tab":n},`Open in ${is[n]??n}`);r.addEventListener("click",()=>t(n,e.view.params));let a=Object.entries(e.evidence).map(([o,i])=>s("li",{},`${o.replaceAll("_"," ")}: ${ls(i.value,i.unit)}`));return s("li",{class:`finding severity-${e.severity}`,"data-testid":"finding","data-kind":e.kind,"data-key":e.key,"data-severity":e.severity},s("div",{class:"finding-head"},s("span",{class:`severity-badge severity-${e.severity}`},e.severity),s("strong",{class:"finding-title"},e.title)),s("ul",{class:"finding-evidence"},...a),s("p",{class:"finding-fix"},e.recommendation),r)}function Ge(e,t){let n=e.length===0?s("p",{class:"muted","data-testid":"no-findings"},"No findings: nothing in this run crossed a threshold."):s("ol",{class:"findings","data-testid":"findings"},...e.map(r=>cs(r,t)));return s("section",{class:"panel"},s("h2",{},"Findings"),n)}function _n(e,t,n,r){return M(`./memory?${P(e,{rank:t})}`,n,r)}function Sn(e,t,n,r){return M(`./snapshot?${P(e,{file:t})}`,n,r)}function Tn(e,t,n,r,a,o,i){let l=P(e,{file:t,device:n,start:r,end:a,width_px:o});return M(`./snapshot/tile?${l}`,i)}function Mn(e,t,n,r,a){return M(`./snapshot/allocation?${P(e,{file:t,device:n,index:r})}`,a)}function Ue(e){let t=2166136261;for(let n=0;n<e.length;n+=1)t^=e.charCodeAt(n),t=Math.imul(t,16777619);return(t>>>0)%40}function Ke(e){return Array.from({length:40},(t,n)=>{let r=Math.round(n*137.508%360),a=(e?36:72)+n%3*4;return`hsl(${r} ${e?40:55}% ${a}%)`})}function Se(){let e=getComputedStyle(document.documentElement),t=r=>e.getPropertyValue(r).trim(),n=document.documentElement.dataset.theme==="dark";return{dark:n,background:t("--bg"),surface:t("--surface"),text:t("--fg"),mutedText:t("--fg-muted"),border:t("--border"),grid:t("--grid"),accent:t("--accent"),boxText:n?"#f5f5f5":"#212121",boxes:Ke(n)}}function yt(e){return e.end-e.start}function te(e,t){let n=yt(t),r=Math.min(n,Math.max(200,yt(e))),a=Math.min(Math.max(e.start,t.start),t.end-r);return{start:a,end:a+r}}function Rn(e,t,n,r){let a=t-(t-e.start)*n,o=t+(e.end-t)*n;return te({start:a,end:o},r)}function $n(e,t,n){return te({start:e.start+t,end:e.end+t},n)}function Xe(e,t,n,r){let a=Math.max(t-e,200)*n;return te({start:e-a,end:t+a},r)}function En(e,t,n,r){if(t>=e.start&&n<=e.end)return e;let a=yt(e);if(n-t>a*.8)return Xe(t,n,.1,r);let o=(t+n)/2;return te({start:o-a/2,end:o+a/2},r)}function qe(e,t){let n=Math.max(t-e,200)*.02;return{start:e-n,end:t+n}}var ds=3,us=.0015,ms=16,ps=400,hs=1,fs=2,bs=.8,gs=.1,ys=Math.log(10),vs=1,ws=.05;function ks(e){if(e.ctrlKey||e.metaKey||e.altKey)return null;let t=e.key.toLowerCase();return t==="w"||t==="a"||t==="s"||t==="d"?t:null}function Ln(e,t){return t===hs?e*ms:t===fs?e*ps:e}function xs(e,t,n){let r=Ln(e,n),a=Ln(t,n);return Math.abs(r)>Math.abs(a)?{kind:"pan",px:r}:{kind:"zoom",factor:Math.exp(a*us)}}function An(e,t){if(e==="w"||e==="s"){let r=t===null?bs:Math.exp(-ys*t);return{kind:"zoom",factor:e==="w"?r:1/r}}let n=t===null?gs:vs*t;return{kind:"pan",fraction:e==="d"?n:-n}}function _s(e,t){return Math.min(ws,(e-t)/1e3)}function Te(e,t,n,r){return e.start+(t-n)/Math.max(1,r)*(e.end-e.start)}function Me(e,t){return(e.end-e.start)/Math.max(1,t)}function Ve(e,t,n,r,a,o){let i=t===null?(e.start+e.end)/2:Te(e,t,n,r);return Rn(e,i,a,o)}function je(e,t,n,r){return $n(e,t*Me(e,n),r)}function Ss(e,t,n){let r=new Set,a=0,o=l=>{l.kind==="zoom"?t.zoomAt(n(),l.factor):t.panBy(l.fraction*t.timeAreaWidth())},i=l=>{if(r.size===0)return;let c=_s(l,a);a=l;for(let u of r)o(An(u,c));requestAnimationFrame(i)};e.addEventListener("keydown",l=>{if(l.key==="Escape"){t.escape?.();return}let c=ks(l);c!==null&&(l.preventDefault(),!(l.repeat||r.has(c))&&(o(An(c,null)),r.add(c),r.size===1&&(a=performance.now(),requestAnimationFrame(i))))}),e.addEventListener("keyup",l=>{r.delete(l.key.toLowerCase())}),e.addEventListener("blur",()=>r.clear())}function Ye(e,t,n){let r=n.timeAreaLeft,a=null;n.keys&&Ss(e,t,()=>a),e.addEventListener("wheel",i=>{if(i.offsetX<r)return;i.preventDefault();let l=xs(i.deltaX,i.deltaY,i.deltaMode);l.kind==="pan"?t.panBy(l.px):t.zoomAt(i.offsetX,l.factor)},{passive:!1});let o=null;e.addEventListener("pointerdown",i=>{i.button===0&&(e.setPointerCapture(i.pointerId),o={startX:i.offsetX,lastX:i.offsetX,moved:!1})}),e.addEventListener("pointermove",i=>{if(a=i.offsetX>=r?i.offsetX:null,o===null){t.hoverAt(i.offsetX,i.offsetY);return}Math.abs(i.offsetX-o.startX)>ds&&(o.moved=!0),o.moved&&(t.panBy(o.lastX-i.offsetX),o.lastX=i.offsetX)}),e.addEventListener("pointerup",i=>{o!==null&&!o.moved&&t.clickAt(i.offsetX,i.offsetY),o=null}),e.addEventListener("pointercancel",()=>{o=null}),e.addEventListener("pointerleave",()=>{a=null,t.hoverEnd()})}var Re=280,Cn=18,Ts=60;function Ms(e){let{bands:t,steps:n}=e,r=[],a=0;return t.id.forEach((o,i)=>{let l=t.start[i]??0,c=t.y0[i]??0,u=t.steps[i]??0;for(let d=0;d<u;d+=1,a+=1){let p=e.start+((n.px[a]??0)+1)*e.ns_per_px;r.push({band:i,t0:l,t1:p,y:c}),l=p,c=n.y[a]??c}r.push({band:i,t0:l,t1:t.end[i]??l,y:c})}),r}function Nn(e){return`${e.filename}:${e.line} (${e.name})`}function Pn(e,t,n){return e.length===0&&t<=0?s("p",{class:"muted"},"No stack recorded."):s("ol",{class:"stack-frames","data-testid":n},...e.map(r=>s("li",{},Nn(r))),t>0?s("li",{class:"muted stack-more","data-testid":`${n}-more`},`… and ${b(t)} more ${t===1?"frame":"frames"} (not shown)`):null)}var Je=class{constructor(t,n,r,a,o){this.run=t;this.file=n;this.device=r;this.timeUnit=a;this.signal=o;let i=r.time?Math.max(r.time.end,r.time.start+1):1;this.bounds={start:r.time?.start??0,end:i},this.window=this.bounds;let l=s("button",{type:"button","data-testid":"snapshot-reset"},"Reset zoom");l.addEventListener("click",()=>this.show(this.bounds)),this.element=s("div",{class:"snapshot-viewer","data-testid":"snapshot-viewer"},s("div",{class:"snapshot-toolbar"},l,this.status,s("span",{class:"muted hint"},"Wheel: zoom · drag: pan · click a block: details")),this.stage,this.hover,this.details),this.attachInput(),new ResizeObserver(()=>{let c=Math.floor(this.stage.clientWidth);c===0||c===this.width||(this.width=c,this.draw(),this.schedule())}).observe(this.stage),o.addEventListener("abort",()=>this.fetching.abort(),{once:!0})}run;file;device;timeUnit;signal;element;canvas=s("canvas",{class:"snapshot-canvas","data-testid":"snapshot-canvas",tabindex:0,"aria-label":"Live allocations over time; wheel to zoom, drag to pan, click for details"});stage=s("div",{class:"snapshot-stage"},this.canvas);status=s("span",{class:"muted","data-testid":"snapshot-status"});hover=s("span",{class:"snapshot-hover","data-testid":"snapshot-hover"});details=s("div",{class:"snapshot-details","data-testid":"snapshot-allocation"},s("p",{class:"muted"},"Click a block for its size, lifetime and stack."));bounds;window;drawn=null;width=0;fetching=new AbortController;detailsFetch=new AbortController;timer;formatTime(t){return this.timeUnit==="ns"?ae(t):`entry ${Math.round(t)}`}formatSpan(t){return this.timeUnit==="ns"?f(t):`${Math.round(t)} entries`}show(t){this.window=te(t,this.bounds),this.draw(),this.schedule()}schedule(){clearTimeout(this.timer),this.timer=setTimeout(()=>{this.load()},Ts)}async load(){if(this.width===0||this.signal.aborted)return;this.fetching.abort(),this.fetching=new AbortController;let{start:t,end:n}=this.window,r=Math.floor(t),a=Math.max(Math.ceil(n),r+1);try{let o=await Tn(this.run,this.file,this.device.device,r,a,this.width,this.fetching.signal),i=Math.max(1,...o.pixels.total_max);this.drawn={tile:o,pieces:Ms(o),yMax:i},this.status.textContent=`${o.drawn} of ${o.visible} allocations drawn`+(o.merged?` (${o.merged} too small or too short: grey)`:"")+` · ${this.formatTime(r)} – ${this.formatTime(a)}`,this.draw()}catch(o){if(o instanceof DOMException&&o.name==="AbortError")return;this.status.textContent=`Could not load this window: ${String(o)}`}}x(t){return(t-this.window.start)/(this.window.end-this.window.start)*this.width}draw(){let t=window.devicePixelRatio||1,n=this.width;this.canvas.width=Math.round(n*t),this.canvas.height=Math.round(Re*t),this.canvas.style.width=`${n}px`,this.canvas.style.height=`${Re}px`;let r=this.canvas.getContext("2d");if(!r||n===0)return;let a=Se(),o=Ke(a.dark);r.setTransform(t,0,0,t,0,0),r.fillStyle=a.background,r.fillRect(0,0,n,Re);let i=Re-Cn,l=this.drawn;if(l){let{tile:d,pieces:p,yMax:m}=l,h=(i-12)/m;r.fillStyle=a.grid,d.pixels.total_max.forEach((v,g)=>{let w=d.pixels.drawn_max[g]??0;if(v<=w)return;let k=this.x(d.start+g*d.ns_per_px),y=this.x(d.start+(g+1)*d.ns_per_px);r.fillRect(k,i-v*h,Math.max(1,y-k),(v-w)*h)});for(let v of p){let g=d.bands.size[v.band]??0,w=d.labels[d.bands.label[v.band]??0]??"",k=Math.max(-1,this.x(v.t0)),y=Math.min(n+1,this.x(v.t1));if(y<=k)continue;r.fillStyle=o[Ue(w)]??a.accent;let _=i-(v.y+g)*h;r.fillRect(k,_,Math.max(y-k,.5),Math.max(g*h,.5))}r.fillStyle=a.mutedText,r.font="11px sans-serif",r.textBaseline="top",r.fillText(S(m),4,2)}r.strokeStyle=a.border,r.beginPath(),r.moveTo(0,i+.5),r.lineTo(n,i+.5),r.stroke(),r.fillStyle=a.mutedText,r.font="11px sans-serif",r.textBaseline="top",r.fillText(this.formatTime(this.window.start),4,i+4);let c=this.formatTime(this.window.end);r.fillText(c,n-r.measureText(c).width-4,i+4);let u=`${this.formatSpan(this.window.end-this.window.start)} shown`;r.fillText(u,(n-r.measureText(u).width)/2,i+4)}bandAt(t,n){let r=this.drawn;if(!r)return null;let a=Re-Cn,o=(a-12)/r.yMax,i=Te(this.window,t,0,this.width),l=(a-n)/o,c=Me(this.window,this.width);for(let u of r.pieces){let d=r.tile.bands.size[u.band]??0;if(!(i<u.t0-c||i>=u.t1+c)&&l>=u.y&&l<u.y+Math.max(d,2/o))return u.band}return null}describe(t){let n=this.drawn?.tile;if(!n)return"";let r=n.labels[n.bands.label[t]??0]??"";return`${S(n.bands.size[t]??0)} · ${r}`}async select(t){let r=this.drawn?.tile?.bands.id[t];if(r!==void 0){this.detailsFetch.abort(),this.detailsFetch=new AbortController,this.details.replaceChildren(s("p",{class:"muted"},`Loading allocation ${r}…`));try{let a=await Mn(this.run,this.file,this.device.device,r,this.detailsFetch.signal);this.details.replaceChildren(this.allocationView(a))}catch(a){if(a instanceof DOMException&&a.name==="AbortError")return;this.details.replaceChildren(s("p",{role:"alert"},String(a)))}}}allocationView(t){let n=(r,a)=>s("tr",{},s("th",{},r),s("td",{"data-field":r},a));return s("div",{},s("h3",{},`Allocation ${t.index}: ${S(t.size)}`),s("table",{class:"details-table"},s("tbody",{},n("size",`${S(t.size)} (${t.size.toLocaleString("en-US")} B)`),n("address",`0x${t.addr.toString(16)}`),n("allocated",t.allocated_before_trace?"before the trace began":this.formatTime(t.t_alloc)),n("freed",t.live_at_snapshot?"still live at the snapshot":this.formatTime(t.t_free)),n("lifetime",`${this.formatSpan(t.lifetime)}${t.allocated_before_trace||t.live_at_snapshot?" or more":""}`),n("stream",String(t.stream)),n("first user frame",t.first_user_frame?Nn(t.first_user_frame):"—"))),s("h4",{},"Allocated at"),Pn(t.frames,t.more_frames??0,"allocation-frames"),t.free_frames.length?s("h4",{},"Freed at"):null,t.free_frames.length?Pn(t.free_frames,t.more_free_frames??0,"free-frames"):null)}attachInput(){Ye(this.canvas,{zoomAt:(t,n)=>this.show(Ve(this.window,t,0,this.width,n,this.bounds)),panBy:t=>this.show(je(this.window,t,this.width,this.bounds)),timeAreaWidth:()=>this.width,clickAt:(t,n)=>{let r=this.bandAt(t,n);r!==null&&this.select(r)},hoverAt:(t,n)=>{let r=this.bandAt(t,n);this.hover.textContent=r===null?"":this.describe(r)},hoverEnd:()=>{this.hover.textContent=""}},{timeAreaLeft:0,keys:!1})}};var Rs=["allocated","reserved","peak","rss"],$s={allocated:"allocated",reserved:"reserved",peak:"peak allocated",rss:"RSS"},Es="#d62728";function $e(e,t,...n){return s("section",{class:"panel","data-testid":t},s("h2",{},e),...n)}function Ls(e){return e instanceof DOMException&&e.name==="AbortError"}function As(e,t){let n={x:[],y:[]};return t.forEach((r,a)=>{let o=e[a];r!==null&&o!==void 0&&(n.x.push(o),n.y.push(r))}),n}function Hn(e,t){let n=e.length>1,r=[],a=0;for(let o of e){for(let l of Rs){let c=o[l];if(!c)continue;let{x:u,y:d}=As(o[t],c);if(u.length===0)continue;let p=`${n?`rank ${o.rank} `:""}${$s[l]}`;r.push({label:p,color:G(a),x:u,y:d}),a+=1}let i=o.trend;t==="steps"&&i?.leak&&r.push({label:`${n?`rank ${o.rank} `:""}leak trend (${S(i.slope)}/step)`,color:Es,x:[i.first_step,i.last_step],y:[i.start_level,i.end_level],dashed:!0})}return r}function Cs(e){let t=e.ranks;if(t.length===0)return[s("p",{class:"muted","data-testid":"no-memory"},e.empty_reason??"No MemorySampler records in this run. Wrap the training loop in “with MemorySampler(timer):” (from collectors) to record memory every step.")];let n=new Set(t.filter(m=>m.trend?.leak).map(m=>m.rank)),r=m=>m.rss?.filter(h=>h!==null).at(-1)??null,{charted:a,note:o}=me(t,m=>m.max_peak?.bytes??r(m),"peak allocation (the last RSS without CUDA)",n),i=Math.max(...t.map(m=>m.bucket)),l=i>1?s("p",{class:"muted"},`Each point is the mean of ${i} consecutive steps (peak: their maximum).`):null,c=t.filter(m=>m.source==="trace").map(m=>m.rank),u=c.length>0?s("p",{class:"muted","data-testid":"memory-from-traces"},`From torch.profiler's memory events (profile_memory=True), not MemorySampler: rank(s) ${c.join(", ")}. Allocated and reserved as they stood at each step's end; peak: the most allocated within the step.`):null,d=K({series:Hn(a,"steps"),height:280,xLabel:"step",formatX:m=>String(m),formatY:S,yTickFormat:le,testId:"memory-step-chart"}),p=K({series:Hn(a,"t_ns"),height:220,xLabel:"time since the first sample",formatX:f,formatY:S,yTickFormat:le,testId:"memory-time-chart"});return[$e("Memory per step","memory-steps",u,o,d,l),$e("Memory over time","memory-time",p)]}var Ps=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"device",label:"device",numeric:!1,value:e=>e.device},{key:"source",label:"source",numeric:!1,value:e=>e.source},{key:"device_total",label:"device memory",numeric:!0,value:e=>e.device_total,format:e=>S(e.device_total)},{key:"peak",label:"peak allocated",title:"The highest peak (else allocated) any step recorded",numeric:!0,value:e=>e.max_peak?.bytes??null,format:e=>S(e.max_peak?.bytes)},{key:"peak_share",label:"% of device",numeric:!0,value:e=>(e.max_peak?.share??null)===null?null:(e.max_peak?.share??0)*100,format:e=>U(e.max_peak?.share===null||!e.max_peak?null:e.max_peak.share*100)},{key:"unused",label:"reserved above peak",title:"Median over steps after warm-up of reserved memory the peak never used (fragmentation)",numeric:!0,value:e=>e.fragmentation?.unused??null,format:e=>e.fragmentation?`${S(e.fragmentation.unused)} (${(e.fragmentation.unused_fraction*100).toFixed(0)} %)`:"—"},{key:"retries",label:"alloc retries",numeric:!0,value:e=>e.fragmentation?.retries??null,format:e=>b(e.fragmentation?.retries)},{key:"slope",label:"trend per step",title:"Theil-Sen slope after warm-up (allocated on CUDA, else RSS), with its 95 % interval",numeric:!0,value:e=>e.trend?.slope??null,format:e=>e.trend?`${S(e.trend.slope)} [${S(e.trend.low)}, ${S(e.trend.high)}]`:"—"}],Ns=[{key:"label",label:"first user frame",numeric:!1,value:e=>e.label},{key:"peak_bytes",label:"live at peak",numeric:!0,value:e=>e.peak_bytes,format:e=>`${S(e.peak_bytes)} (${b(e.peak_count)})`},{key:"snapshot_bytes",label:"live at snapshot",numeric:!0,value:e=>e.snapshot_bytes,format:e=>`${S(e.snapshot_bytes)} (${b(e.snapshot_count)})`},{key:"trace_bytes",label:"allocated in trace",numeric:!0,value:e=>e.trace_bytes,format:e=>`${S(e.trace_bytes)} (${b(e.trace_count)})`}],Hs=[{key:"index",label:"allocation",numeric:!0,value:e=>e.index},{key:"size",label:"size",numeric:!0,value:e=>e.size,format:e=>S(e.size)},{key:"frame",label:"first user frame",numeric:!1,value:e=>e.first_user_frame?`${e.first_user_frame.filename}:${e.first_user_frame.line} (${e.first_user_frame.name})`:"—"}];function Ds(e,t,n,r){let a=new Je(e,t.file,n,t.time_unit,r),o=n.by_first_user_frame.length;return s("div",{class:"snapshot-device","data-testid":"snapshot-device"},s("p",{class:"muted"},`Device ${n.device}: ${S(n.reserved_bytes)} reserved, ${S(n.allocated_bytes)} allocated at the snapshot; at most ${S(n.peak.live_bytes)} live at once (with ${S(n.peak.reserved_bytes)} reserved); ${b(n.allocations)} allocations.`),s("h3",{},"What holds the peak, by first user frame"),s("div",{class:"table-scroll"},A({columns:Ns,rows:n.by_first_user_frame,testId:"peak-frames",rowTestId:"peak-frame",rowName:i=>i.label})),o<n.frames_total?s("p",{class:"muted"},`The ${o} of ${n.frames_total} groups with the most memory at the peak.`):null,s("h3",{},"Largest allocations at the peak"),s("div",{class:"table-scroll"},A({columns:Hs,rows:n.largest_at_peak,testId:"peak-largest",rowTestId:"peak-allocation",rowName:i=>String(i.index)})),s("h3",{},"Allocations over time"),a.element)}function Is(e,t,n){let r=t.devices,a=s("div",{}),o=s("select",{"data-testid":"snapshot-device-select","aria-label":"Device"},...r.map(c=>s("option",{value:String(c.device)},`cuda:${c.device}`))),i=()=>{let c=r.find(u=>String(u.device)===o.value)??r[0];a.replaceChildren(c?Ds(e,t,c,n):s("p",{class:"muted"},"This snapshot holds no device."))};o.addEventListener("change",i),i();let l=t.trace_entries.oom??0;return s("div",{"data-testid":"snapshot-summary"},s("p",{},`${t.format} snapshot, ${S(t.reserved_bytes)} reserved, ${S(t.allocated_bytes)} allocated, free blocks ${(t.fragmentation.external*100).toFixed(0)} % fragmented`+(l?`; ${l} out-of-memory error(s) in its trace`:"")+(t.time_unit==="index"?"; no times recorded (entries in order)":"")),r.length>1?s("label",{},"Device ",o):null,a)}function Os(e,t,n,r){if(t.length===0)return $e("Memory snapshots","snapshots",s("p",{class:"muted","data-testid":"no-snapshots"},"No memory snapshots in this run. Record CUDA allocator history around a few steps with MemorySnapshotter (ENABLE_MEMORY_SNAPSHOT=1) to see what holds the peak, by line of code, and every allocation over time."));let a=s("select",{"data-testid":"snapshot-select","aria-label":"Snapshot"},...t.map(c=>s("option",{value:c.file},`${c.file} (${c.rank===null?"rank unknown":`rank ${c.rank}`}, ${S(c.bytes)})`)));a.value=t.some(c=>c.file===n)?n??"":t[0]?.file??"";let o=s("div",{class:"snapshot-body"}),i=new AbortController,l=async()=>{i.abort(),i=new AbortController;let c=AbortSignal.any([r,i.signal]),u=a.value;o.replaceChildren(s("p",{class:"muted"},`Loading ${u}…`));try{let d=await Sn(e,u,c,p=>{o.replaceChildren(s("p",{class:"muted"},`Loading ${u}… ${Math.round(p.fraction*100)} %`))});o.replaceChildren(Is(e,d,c))}catch(d){if(Ls(d))return;o.replaceChildren(s("div",{class:"error",role:"alert","data-testid":"snapshot-error"},s("strong",{},`Could not read ${u}`),s("p",{},d instanceof Error?d.message:String(d))))}};return a.addEventListener("change",()=>{l()}),l(),$e("Memory snapshots","snapshots",s("label",{},"Snapshot ",a),o)}function Ws(e){return e.length===0?null:s("section",{class:"warnings","data-testid":"warnings",role:"status"},s("h2",{},`${e.length} warning(s) while reading memory data`),s("ul",{},...e.map(t=>s("li",{},t))))}function Fs(e,t,n,r){let a=e.ranks.length>0?$e("Peak and fragmentation per rank","memory-ranks",s("div",{class:"table-scroll"},A({columns:Ps,rows:e.ranks,testId:"memory-rank-table",rowTestId:"memory-rank-row",rowName:o=>String(o.rank)}))):null;return s("div",{class:"memory","data-testid":"memory"},Ws(e.warnings),Ge(e.findings,t),...Cs(e),a,Os(e.run,e.snapshots,n,r))}var Dn={id:"memory",label:"Memory",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,navigate:a,params:o}){let i=await _n(e,t,n,r),l=typeof o.snapshot=="string"?o.snapshot:null;return Fs(i,a,l,n)}};function In(e,t,n,r){return M(`./modules?${P(e,{rank:t})}`,n,r)}function On(e,t,n,r,a){return M(`./module_steps?${P(e,{rank:t,path:n,phase:r})}`,a)}function Wn(e){let t=new Set(e.map(a=>a.path)),n=[],r=new Map;for(let a of e){if(a.parent===null||!t.has(a.parent)){n.push(a);continue}let o=r.get(a.parent);o?o.push(a):r.set(a.parent,[a])}return{roots:n,children:r}}function Fn(e,t){let n=new Set;return e.filter(r=>r.parent!==null&&(t.has(r.parent)||n.has(r.parent))?(n.add(r.path),!1):!0)}function Bn(e,t,n,r=.5){let a=[],o=new Map,i=u=>{let d=o.get(u.path);return d===void 0&&(d=Math.max(0,t(u)),d===0&&(d=l(e.children.get(u.path)??[])),o.set(u.path,d)),d},l=u=>u.reduce((d,p)=>d+i(p),0),c=(u,d,p,m,h)=>{let v=d;for(let g of u){let w=m>0?p*i(g)/m:0;if(w>=r){a.push({row:g,x:v,width:w,level:h});let k=e.children.get(g.path)??[];c(k,v,w,Math.max(i(g),l(k)),h+1)}v+=w}};return c(e.roots,0,n,l(e.roots),0),a}var vt=20,Bs=6.5,zs=24;function Gs(e,t){let n=Math.floor((t-6)/Bs);return t<zs||n<2?"":e.length<=n?e:`${e.slice(0,n-1)}…`}function Us(e,t){let n=Bn(e.tree,e.value,t),r=n.reduce((o,i)=>Math.max(o,i.level+1),0),a=R("svg",{width:t,height:r*vt,class:"icicle-svg",role:"img","aria-label":"Module time as an icicle chart"});for(let{row:o,x:i,width:l,level:c}of n){let u=c*vt,d=R("g",{class:o.path===e.selected?"icicle-cell selected":"icicle-cell","data-testid":"icicle-cell","data-path":o.path},R("title",{},e.tooltip(o)),R("rect",{x:i.toFixed(2),y:u,width:Math.max(l-1,.5).toFixed(2),height:vt-1,fill:e.color(o)})),p=Gs(e.label(o),l);p&&d.append(R("text",{class:"icicle-label",x:(i+3).toFixed(2),y:u+14},p)),d.addEventListener("click",()=>e.onSelect(o)),a.append(d)}return a}function zn(e){let t=s("div",{class:"icicle","data-testid":"module-icicle"}),n=0;return new ResizeObserver(()=>{let r=t.clientWidth;r===0||r===n||(n=r,t.replaceChildren(Us(e,r)))}).observe(t),t}var Ks=200,Xs=2,qs=16,Xn={forward:"forward",backward:"backward",total:"forward + backward"};function wt(e){return e.path===""?`(model) ${e.type}`:e.name}function Vs(e){return e instanceof DOMException&&e.name==="AbortError"}function Ze(e,t){return e[t.phase]}function Gn(e,t){let n=Ze(e,t);return n?(t.time==="device"?n.gpu_total_ns:n.total_ns)??0:0}function J(e,t,n,r,a=f){let o=i=>Ze(i,r)?.[e]??null;return{key:e,label:t,title:n,numeric:!0,value:o,format:i=>a(o(i))}}function js(e,t,n,r){let a={key:"name",label:"module",numeric:!1,value:u=>u.path,render:u=>{let d=!t.has(u.path),p=n(u)?s("button",{type:"button",class:"tree-toggle","data-testid":"module-toggle","aria-expanded":String(d),"aria-label":`${d?"Collapse":"Expand"} ${wt(u)}`},d?"▾":"▸"):s("span",{class:"tree-toggle-space"});return p.addEventListener("click",m=>{m.stopPropagation(),r(u)}),s("span",{class:"tree-cell",style:`padding-left:${u.depth*qs}px`,title:u.path},p,wt(u))}},o={key:"type",label:"type",numeric:!1,value:u=>u.type},i=J("calls","calls","Calls in this phase",e,b),l={key:"params",label:"params",title:"Parameters in its subtree (shared ones once)",numeric:!0,value:u=>u.params,format:u=>b(u.params)},c=J("pct_of_step","% of step","Its time per covered step over the mean step time (docs/ANALYSIS.md)",e,U);return e.time==="device"?[a,o,i,J("gpu_total_ns","device total","CUDA-event time of its calls",e),J("gpu_mean_ns","device mean","Per call, in steps with device times",e),J("total_ns","host total","Host time of its calls",e),l]:[a,o,i,J("self_ns","self","Total minus the profiled modules called inside it",e),J("total_ns","total","Time of its calls, nested modules included",e),J("mean_ns","mean","Per call",e),J("p95_ns","p95","Per call (from the recorded samples)",e),c,l]}function Ys(e){let t=e.steps.map(a=>{let o=a.step_time_ns===null?"":`, mean step ${f(a.step_time_ns)}`;return`rank ${a.rank}: ${b(a.steps)} steps${o}`}).join("; "),r=[(e.source==="collector"?"ModuleProfiler records: attribute paths, forward and backward calls.":"From torch.profiler traces: forward calls only (backward runs outside module calls).")+(t?` Covered steps — ${t}.`:"")];if(e.class_names&&r.push(s("strong",{"data-testid":"module-class-names"}," Names are class names with a per-class counter (Linear_3), not attribute paths; the tree comes from how calls nest. Record with collectors.ModuleProfiler for paths.")),e.total_rows>e.rows.length){let a=`${b(e.rows.length)} of ${b(e.total_rows)}`;r.push(` Showing the first ${a} modules.`)}return s("p",{class:"muted","data-testid":"module-note"},...r)}function Js(e){let t=[];return e.backward||t.push("backward not profiled"),e.every_n_steps>1&&t.push(`profiled one step in ${e.every_n_steps}`),e.aggregate_steps>1&&t.push(`records aggregate ${e.aggregate_steps} steps`),e.gpu?.startsWith("off")&&t.push(`no device times: GPU timing ${e.gpu}`),e.max_depth!==null&&t.push(`modules to depth ${e.max_depth}`),e.include.length>0&&t.push(`only ${e.include.join(", ")}`),e.exclude.length>0&&t.push(`excluding ${e.exclude.join(", ")}`),t}function Zs(e){return e.charAt(0).toUpperCase()+e.slice(1)+(e.endsWith(".")?"":".")}function Qs(e){let t=[];for(let n of e){let r=Js(n);if(r.length===0&&n.compiled===null)continue;let a=n.ranks.length===1?"rank":"ranks",o=e.length>1?` (${a} ${n.ranks.join(", ")})`:"",i=r.length>0?`: ${r.join(" · ")}`:"";t.push(`${t.length>0?" ":""}ModuleProfiler${o}${i}.`),n.compiled!==null&&t.push(s("strong",{"data-testid":"module-compiled"},` ${Zs(n.compiled)}`))}return t.length===0?null:s("p",{class:"muted","data-testid":"module-settings"},...t)}function eo(e){return e.length===0?null:s("div",{class:"warnings",role:"status","data-testid":"module-warnings"},s("strong",{},"Some module records could not be read"),s("ul",{},...e.map(t=>s("li",{},t))))}function Un(e,t,n,r){let a=s("select",{"aria-label":e,"data-testid":t},...n.map(([o,i])=>s("option",{value:o},i)));return a.value=r,a}function to(e){return e?`inputs ${JSON.stringify(e.inputs)} → output ${JSON.stringify(e.output)}`:null}function no(e,t,n){let r=[];for(let l of e.series){let c=G(n.indexOf(l.rank)),u=t==="device"&&l.device_ns?l.device_ns:l.host_ns,d=l.steps.flatMap((p,m)=>{let h=u[m];return h==null?[]:[[p,h]]});d.length!==0&&r.push({label:`rank ${l.rank}${t==="device"&&l.device_ns?" (device)":""}`,color:c,x:d.map(([p])=>p),y:d.map(([,p])=>p)})}if(r.length===0)return s("p",{class:"muted","data-testid":"module-step-chart-empty"},"No per-step times: no step covers this module's calls.");let a=Math.max(...e.series.map(l=>l.bucket)),o=K({series:r,height:220,xLabel:"step",formatX:l=>String(l),formatY:f,yTickFormat:ie,testId:"module-step-chart"});if(a===1)return o;let i=`Each point is the mean of ${a} consecutive steps.`;return s("div",{},o,s("p",{class:"muted"},i))}function Kn(e,t){let n=Ze(e,t);if(!n)return`Not called in ${Xn[t.phase]}.`;let r=[`${b(n.calls)} calls`,`total ${f(n.total_ns)}`,`self ${f(n.self_ns)}`,`mean ${f(n.mean_ns)}`];return n.median_ns!==null&&r.push(`median ${f(n.median_ns)}`),n.std_ns!==null&&r.push(`std ${f(n.std_ns)}`),n.p95_ns!==null&&r.push(`p95 ${f(n.p95_ns)}`),n.gpu_total_ns!==null&&r.push(`device ${f(n.gpu_total_ns)}`),e.params!==null&&r.push(`${b(e.params)} params`),r.join(" · ")}function ro(e){return s("p",{class:"muted","data-testid":"modules-empty"},e??"No module calls in this run. Wrap the model in collectors.ModuleProfiler(model, timer) for forward and backward time per attribute path; or record traces with Lightning's PyTorchProfiler, or with profile_steps(..., with_stack=True) (torch.profiler's with_stack=True) in eager mode.")}var qn={id:"modules",label:"Modules",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let a=await In(e,t,n,r),o=s("section",{class:"panel"},s("h2",{},"Modules")),i=Qs(a.settings);i&&o.append(i);let l=s("div",{class:"overview","data-testid":"modules"},o),c=eo(a.warnings);if(a.rows.length===0)return o.append(ro(a.empty_reason)),c&&o.append(c),l;if(!a.rows.some(x=>x.forward||x.backward)){let x=t===null?"Modules are declared, but no calls are recorded yet.":`No module calls recorded on rank ${t}; select another rank.`;return o.append(s("p",{class:"muted","data-testid":"module-note"},x)),l}let u=L(),d=a.phases,p=u.get("modphase"),m={phase:p&&d.includes(p)?p:d.includes("total")?"total":"forward",time:a.device&&u.get("modtime")==="device"?"device":"host"},h=Wn(a.rows),v=x=>(h.children.get(x.path)?.length??0)>0,g=new Set(a.rows.length<=Ks?[]:a.rows.filter(x=>x.depth>=Xs-1&&v(x)).map(x=>x.path)),w=a.steps.map(x=>x.rank),k=[...new Set(a.rows.map(x=>x.type))],y=a.rows.find(x=>x.path===u.get("modpath"))??null,_=Un("Phase","module-phase",d.map(x=>[x,Xn[x]]),m.phase),B=Un("Time","module-time",[["host","host time"],["device","device time"]],m.time);_.hidden=d.length<2,B.hidden=!a.device;let T=s("div"),$=s("div",{class:"table-scroll"}),C=s("div",{class:"module-detail","data-testid":"module-detail"}),D=new AbortController;n.addEventListener("abort",()=>D.abort());let se=()=>{let x=y?.path??null,N="[data-testid=icicle-cell], [data-testid=module-row]";for(let F of l.querySelectorAll(N)){let q=F.getAttribute("data-path")??F.getAttribute("data-name");F.classList.toggle("selected",q===x)}},X=async()=>{if(D.abort(),D=new AbortController,y===null){C.replaceChildren(s("p",{class:"muted"},"Click a module (a row or a cell) to see its time per step."));return}let x=y,N=s("h3",{},`${x.path===""?"(model)":x.path} · ${x.type}`);C.replaceChildren(N,s("p",{},Kn(x,m)),s("p",{class:"muted"},"Loading steps…"));try{let F=await On(e,t,x.path,m.phase,D.signal),q=to(F.shapes);C.replaceChildren(N,s("p",{},Kn(x,m)),...q?[s("p",{class:"muted"},q)]:[],no(F,m.time,w))}catch(F){if(!Vs(F)){let q=`Could not load its steps: ${String(F)}`;C.replaceChildren(N,s("p",{role:"alert"},q))}}},Le=x=>{y=x,E({modpath:x.path}),se(),X()},j=()=>{let x=A({columns:js(m,g,v,N=>{g.has(N.path)?g.delete(N.path):g.add(N.path),j()}).filter(N=>!N.numeric||a.rows.some(F=>N.value(F)!==null)),rows:Fn(a.rows,g),testId:"module-table",rowTestId:"module-row",rowName:N=>N.path,rowClass:N=>N.path===y?.path?"selected":void 0,pageSize:ee});x.addEventListener("click",N=>{let F=N.target instanceof Element?N.target.closest("tr[data-name]"):null,q=F&&a.rows.find(sa=>sa.path===F.getAttribute("data-name"));q&&Le(q)}),$.replaceChildren(x)},oe=()=>{T.replaceChildren(zn({tree:h,value:x=>Gn(x,m),label:wt,tooltip:x=>{let N=Ze(x,m),F=N?.pct_of_step==null?"":` · ${U(N.pct_of_step)} of step`;return`${x.path===""?"(model)":x.path} (${x.type}): ${f(Gn(x,m))}${F}`},color:x=>G(k.indexOf(x.type)),selected:y?.path??null,onSelect:Le})),j(),X()};return _.addEventListener("change",()=>{m.phase=_.value,E({modphase:m.phase}),oe()}),B.addEventListener("change",()=>{m.time=B.value==="device"?"device":"host",E({modtime:m.time==="device"?"device":null}),oe()}),oe(),o.append(Ys(a),...c?[c]:[],s("div",{class:"controls"},_,B),T,C,$),l}};function Qe(e,t,n,r,a,o){let i=`./operators?${P(e,{rank:t,group_by:n,limit:r})}`;return M(i,a,o)}var ao=1e3,so=10,oo=40;function et(e,t,n){return I(e,t,r=>r[e],n)}var io=[{key:"name",label:"operator",numeric:!1,value:e=>e.name,cellTitle:e=>e.name},{key:"input_dims",label:"input shapes",numeric:!1,value:e=>e.input_dims},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>b(e.calls)},et("device_self_ns","device self","Kernels, copies and fills it launched itself"),et("device_total_ns","device total","Device self of the op and everything nested in it"),et("host_self_ns","host self","Host time minus its direct children (as key_averages)"),et("host_total_ns","host total","Host time of its calls")];function lo(e,t){let n=L(),r=n.get("opsort"),a=n.get("opdir");return e.some(o=>o.key===r)&&(a==="asc"||a==="desc")?{key:r,direction:a}:{key:t?"device_self_ns":"host_self_ns",direction:"desc"}}function co(e,t){let n=e.some(r=>r.device_total_ns>0);return io.filter(r=>(t||r.key!=="input_dims")&&(n||!r.key.startsWith("device_")))}function uo(e){let t=e.some(l=>l.device_self_ns>0),n=l=>t?l.device_self_ns:l.host_self_ns,r=[...e].sort((l,c)=>n(c)-n(l)).slice(0,so),a=Math.max(1,...r.map(n)),o=r.map(l=>l.name),i=Pe(o,o,oo);return s("div",{class:"top-bars","data-testid":"operator-bars"},s("p",{class:"muted"},`Top ${r.length} by ${t?"device":"host"} self time`),...r.map((l,c)=>s("div",{class:"top-bar-row"},s("span",{class:"top-bar-label",title:l.name},i[c]??l.name),s("span",{class:"top-bar-track"},s("span",{class:"top-bar",style:`width: ${(n(l)/a*100).toFixed(2)}%`})),s("span",{class:"top-bar-value"},f(n(l))))))}var Vn={id:"operators",label:"Operators",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,params:a}){let o=s("input",{type:"search",class:"search-input",placeholder:"Filter operators","aria-label":"Filter operators","data-testid":"operator-filter",value:String(a.q??L().get("opq")??"")}),i=s("select",{"aria-label":"Group by","data-testid":"operator-group"},s("option",{value:"name"},"by name"),s("option",{value:"input_dims"},"by name and input shapes"));i.value=L().get("opgroup")==="input_dims"?"input_dims":"name";let l=s("p",{class:"muted","data-testid":"operator-caption"}),c=s("div"),u=s("div",{class:"table-scroll"}),d=s("div",{class:"table-scroll"}),p=s("p",{class:"muted","data-testid":"annotation-caption"}),m=[],h=()=>{let w=o.value.trim().toLowerCase(),k=m.filter(C=>w===""||C.name.toLowerCase().includes(w)),y=k.filter(C=>!C.annotation),_=k.filter(C=>C.annotation),B=co(m,i.value==="input_dims"),T=B.some(C=>C.key==="device_self_ns"),$=(C,D,se)=>A({columns:B,rows:C,testId:D,rowTestId:se,rowName:X=>X.name,sort:lo(B,T),onSortChange:X=>E({opsort:X.key,opdir:X.direction}),pageSize:ee});c.replaceChildren(uo(y)),u.replaceChildren($(y,"operator-table","operator-row")),p.textContent=_.length===0?"No annotations.":`${b(_.length)} annotations: profiler steps and record_function / MyTimer spans, which hold operators rather than being one.`,d.replaceChildren(..._.length===0?[]:[$(_,"annotation-table","annotation-row")]),E({opq:w===""?null:o.value})},v=new AbortController,g=async w=>{v.abort(),v=new AbortController;let k=i.value==="input_dims"?"input_dims":"name",y=w?n:v.signal,_=await Qe(e,t,k,ao,y,r);m=_.rows,l.textContent=_.total_rows===0&&_.empty_reason!==null?_.empty_reason:_.total_rows>_.rows.length?`Showing ${_.rows.length} of ${b(_.total_rows)} operators.`:`${b(_.total_rows)} operators.`,h()};return o.addEventListener("input",h),i.addEventListener("change",()=>{E({opgroup:i.value==="input_dims"?"input_dims":null}),g(!1).catch(w=>{w instanceof DOMException&&w.name==="AbortError"||(l.textContent=`Could not load operators: ${String(w)}`)})}),await g(!0),s("div",{class:"overview","data-testid":"operators"},s("section",{class:"panel"},s("h2",{},"Operators"),s("div",{class:"controls"},o,i),l,c,u),s("section",{class:"panel","data-testid":"annotations"},s("h2",{},"Annotations"),p,d))}};function jn(e,t,n){return M(`./findings?${P(e)}`,t,n)}function Yn(e,t,n,r){return M(`./breakdown?${P(e,{rank:t})}`,n,r)}var kt=40,mo=5,po=.08;function ho(e,t,n){let r=t.map((i,l)=>{let c=e.ns[i]??0,u=e.duration_ns>0?c/e.duration_ns:0;return s("span",{class:`breakdown-part category-${i}`,style:`width: ${(u*100).toFixed(3)}%; background: ${i==="idle"?"var(--grid)":G(l)}`,title:`${i}: ${f(c)} (${(u*100).toFixed(1)} %)`},c/n>=po?f(c):"")}),a=e.step===null?"trace":`step ${e.step}`,o=`width: ${(100*e.duration_ns/n).toFixed(3)}%`;return s("div",{class:"breakdown-row","data-testid":"breakdown-bar"},s("span",{class:"breakdown-label"},a),s("span",{class:"breakdown-track"},s("span",{class:"breakdown-bar","aria-label":a,style:o},...r)),s("span",{class:"breakdown-total muted"},f(e.duration_ns)))}function fo(e,t){let n=ie(e);return s("div",{class:"breakdown-row","data-testid":"breakdown-axis"},s("span",{class:"breakdown-label muted"},"time"),s("span",{class:"breakdown-ticks"},...e.map(r=>s("span",{class:"breakdown-tick",style:`left: ${(100*r/t).toFixed(3)}%`},n(r)))),s("span",{}))}function Jn(e){if(e.ranks.length===0)return s("p",{class:"muted"},"No traces in this run: record some steps with profile_steps to see what each step is made of.");let t=s("div",{class:"legend"},...e.categories.map((d,p)=>s("span",{class:"legend-item"},s("span",{class:"legend-swatch",style:`background: ${d==="idle"?"var(--grid)":G(p)}`}),d))),n=({steps:d})=>d.length?d.reduce((p,m)=>p+m.duration_ns,0)/d.length:null,{charted:r,note:a}=me(e.ranks,n,"mean traced step time"),o=r.map(({rank:d,steps:p})=>({rank:d,all:p.length,steps:p.slice(0,kt)})),i=Math.max(1,...o.flatMap(({steps:d})=>d.map(p=>p.duration_ns))),{max:l,ticks:c}=Oe(0,i,mo,!1),u=o.map(({rank:d,all:p,steps:m})=>s("div",{class:"breakdown-rank"},s("h3",{},`rank ${d}`),...m.map(h=>ho(h,e.categories,l)),fo(c,l),p>kt?s("p",{class:"muted"},`First ${kt} of ${p} steps.`):null));return s("div",{class:"breakdown","data-testid":"breakdown"},a,t,...u)}function Zn(e,t,n,r){let a=new URLSearchParams({run:e});return t!==null&&a.set("rank",String(t)),M(`./summary?${a}`,n,r)}function bo(e){let t=n=>n.categories[e]??null;return{key:e,label:e,title:`Mean ${e} time per step, and its share of step time`,numeric:!0,value:n=>t(n)?.ns_per_step??null,format:n=>{let r=t(n);return r===null?"—":`${f(r.ns_per_step)} (${U(r.share*100)})`}}}function Qn(e){let t=e[0];if(t===void 0)return s("p",{class:"muted"},"No traced steps to summarize.");let n=[{key:"rank",label:"rank",numeric:!0,value:r=>r.rank},{key:"steps",label:"steps",numeric:!0,value:r=>r.steps,format:r=>b(r.steps),title:"Traced steps (or whole traces) broken down"},I("step_ns","step",r=>r.step_ns,"Mean traced step time"),...Object.keys(t.categories).map(bo)];return s("div",{class:"table-scroll"},A({columns:n,rows:e,testId:"execution-table",rowTestId:"execution-row",rowName:r=>String(r.rank)}))}var er={key:"total_ns",direction:"desc"},go=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"host",label:"host",numeric:!1,value:e=>e.host,format:e=>e.host??"—"},{key:"pid",label:"pid",numeric:!0,value:e=>e.pid,format:e=>String(e.pid??"—")},{key:"status",label:"status",numeric:!1,value:e=>e.status},{key:"steps",label:"steps",numeric:!0,value:e=>e.steps,format:e=>b(e.steps)},{key:"step_source",label:"steps from",title:"MyTimer's steps, else the traces' ProfilerStep#N windows",numeric:!1,value:e=>e.step_source,format:e=>e.step_source??"—"},I("mean","mean step",e=>e.step_time_ns?.mean??null),I("p50","p50 step",e=>e.step_time_ns?.p50??null),I("p95","p95 step",e=>e.step_time_ns?.p95??null),I("max","max step",e=>e.step_time_ns?.max??null)],yo=I("device_mean","mean step (device)",e=>e.device_step_time_ns?.mean??null,"ProfilerStep windows run on to the end of the device work they launched (torch-tb-profiler's steps)"),vo=[{key:"tflops",label:"TFLOP/s",numeric:!0,value:e=>e.compute?.achieved_tflops??null,format:e=>wo(e.compute?.achieved_tflops),title:"Median achieved model TFLOP/s over the steps (FlopsCounter's count of one step)"},{key:"mfu",label:"MFU",numeric:!0,value:e=>e.compute?.mfu??null,format:e=>U(e.compute?.mfu===null||e.compute?.mfu===void 0?null:e.compute.mfu*100),title:"Median model FLOPs utilization: achieved FLOP/s over the device's peak for the dtype"}];function wo(e){return e==null?"—":e>=10?e.toFixed(0):e.toPrecision(2)}var ko=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},I("compile_ns","compile time",e=>e.compile?.compile_ns??null),{key:"graphs",label:"graphs",numeric:!0,value:e=>e.compile?.graphs??null,format:e=>b(e.compile?.graphs)},{key:"recompiles",label:"recompiles",numeric:!0,value:e=>e.compile?.recompiles??null,format:e=>b(e.compile?.recompiles)},{key:"graph_breaks",label:"graph breaks",numeric:!0,value:e=>e.compile?.graph_breaks??null,format:e=>b(e.compile?.graph_breaks)},{key:"limit_hits",label:"limit hits",numeric:!0,value:e=>e.compile?.limit_hits??null,format:e=>b(e.compile?.limit_hits),title:"Functions that reached dynamo's recompile limit and now run uncompiled"}];function xo(e){let t=e.filter(a=>a.compile!==null);if(t.length===0)return null;let n=t.flatMap(a=>[...(a.compile?.recompile_reasons??[]).map(o=>`rank ${a.rank}: recompiled ${o.function} ×${o.count}: ${o.reason}`),...(a.compile?.break_reasons??[]).map(o=>`rank ${a.rank}: graph break ×${o.count}: ${o.reason}`)]),r=t.every(a=>a.compile?.source==="trace");return pe("torch.compile",s("p",{class:"muted"},r?"From the compiled regions of the traces (collectors.CompileMonitor adds graph breaks and reasons).":"From collectors.CompileMonitor (docs/COMPUTE.md)."),s("div",{class:"table-scroll"},A({columns:ko,rows:t,testId:"compile-table",rowTestId:"compile-row",rowName:a=>String(a.rank)})),n.length?s("ul",{class:"compile-reasons","data-testid":"compile-reasons"},...n.map(a=>s("li",{},a))):null)}function _o(e){let t=[{key:"name",label:"name",numeric:!1,value:n=>n.name},{key:"calls",label:"calls",numeric:!0,value:n=>n.calls,format:n=>b(n.calls)},I("total_ns","total",n=>n.total_ns,"Sum of the span's durations"),I("self_ns","self",n=>n.self_ns,"Total minus the time of direct child spans"),I("mean_ns","mean",n=>n.mean_ns),I("p50_ns","p50",n=>n.p50_ns),I("p95_ns","p95",n=>n.p95_ns),{key:"pct_of_step",label:"% of step",title:"Total as a share of all step time of the selected ranks (can exceed 100 % for spans outside steps)",numeric:!0,value:n=>n.pct_of_step,format:n=>U(n.pct_of_step)}];return e&&t.push(I("gpu_total_ns","GPU total",r=>r.gpu_total_ns,"Sum of the spans' CUDA-event durations")),t}function So(e){let t=L(),n=t.get("sort"),r=t.get("dir");return!e.some(a=>a.key===n)||r!=="asc"&&r!=="desc"?er:{key:n??er.key,direction:r}}function pe(e,...t){return s("section",{class:"panel"},s("h2",{},e),...t)}function To(e){return e.length===0?null:s("section",{class:"warnings","data-testid":"warnings",role:"status"},s("h2",{},e.length===1?"1 warning while reading this run":`${e.length} warnings while reading this run`),s("ul",{},...e.map(t=>s("li",{},t))))}function Mo(e){let t=e.step_series.filter(i=>i.steps.length>0);if(t.length===0)return s("p",{class:"muted"},"No completed steps yet.");let n=e.ranks.map(i=>i.rank),r=Math.max(...t.map(i=>i.bucket)),a=K({series:t.map(i=>({label:`rank ${i.rank}`,color:G(n.indexOf(i.rank)),x:i.steps,y:i.time_ns})),height:260,xLabel:"step",formatX:i=>String(i),formatY:f,yTickFormat:ie,testId:"step-chart"}),o=r>1?s("p",{class:"muted"},`Each point is the mean of ${r} consecutive steps.`):null;return s("div",{},a,o)}function Ro(e){if(e.spans.length===0)return s("p",{class:"muted","data-testid":"spans-empty"},e.spans_empty_reason??"");let t=_o(e.spans.some(a=>a.gpu_total_ns!==null)),n=A({columns:t,rows:e.spans,testId:"span-table",rowTestId:"span-row",rowName:a=>a.name,sort:So(t),onSortChange:a=>E({sort:a.key,dir:a.direction})}),r=e.spans_truncated?s("p",{class:"muted"},`Showing the ${e.spans.length} spans with the largest total time.`):null;return s("div",{class:"table-scroll"},n,r)}function $o(e){let{count:t,first:n,last:r}=e.steps,a=e.rank===null?`all ${e.ranks.length} ranks`:`rank ${e.rank}`;return t===0||n===null||r===null?`No completed steps (${a}).`:`${b(t)} steps, ${n}–${r} (${a}).`}var tr=5;function Eo(e,t,n){if(e.rows.length===0&&t.rows.length===0)return null;let r=(i,l)=>{let c=s("button",{type:"button",class:"link-button"},l);return c.addEventListener("click",()=>n(i,{})),c},a=e.rows.some(i=>i.device_self_ns>0),o=(i,l)=>s("ol",{class:"top-list","data-testid":l},...i.map(([c,u])=>s("li",{},s("span",{class:"top-name"},c),` ${u}`)));return pe("Top operators and kernels",e.rows.length?s("div",{},s("h3",{},`Operators by ${a?"device":"host"} self time`),o(e.rows.map(i=>[i.name,f(a?i.device_self_ns:i.host_self_ns)]),"top-operators"),r("operators","All operators")):null,t.rows.length?s("div",{},s("h3",{},"Kernels by total time"),o(t.rows.map(i=>[i.name,f(i.total_ns)]),"top-kernels"),r("kernels","All kernels")):null)}function Lo(e,t){if(t)return[t.element];let n=e.ranks.some(o=>o.compute!==null),r=e.ranks.some(o=>o.device_step_time_ns!==null),a=A({columns:[...go,...r?[yo]:[],...n?vo:[]],rows:e.ranks,testId:"rank-table",rowTestId:"rank-row",rowName:o=>String(o.rank),rowClass:o=>o.rank===e.rank?"selected":void 0});return[pe("Ranks",s("p",{class:"muted"},$o(e)),s("div",{class:"table-scroll"},a)),pe("Step time per rank",Mo(e))]}function Ao(e,t,n,r,a,o){let i=t.filter(l=>e.rank===null||l.ranks.length===0||l.ranks.includes(e.rank));return s("div",{class:"overview","data-testid":"overview"},To(e.warnings),Fe(e.gpus),Ge(i,o),pe("Step-time breakdown",Jn(n),s("h3",{},"Execution summary (mean per step)"),Qn(e.execution_summary)),...Lo(e,a),pe("Spans",Ro(e)),xo(e.ranks),r)}var nr={id:"overview",label:"Overview",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,onRanks:a,navigate:o}){let[i,l,c,u,d]=await Promise.all([Zn(e,t,n,r),jn(e,n,r),Yn(e,t,n,r),Qe(e,t,"name",tr,n,r),xe(e,t,tr,n,r)]);a(i.ranks.map(g=>g.host===null?{rank:g.rank}:{rank:g.rank,host:g.host}));let p=Eo(u,d,o),h=t===null&&i.ranks.length>ue?new Be(e,o,r):null,v=Ao(i,l.findings,c,p,h,o);return h?.load(),v}};var Co=2e3,Po=250;function No(e,t,n,r,a,o){let i=`./python?${P(e,{rank:t,sort:n,q:r===""?null:r,limit:Co})}`;return M(i,a,o)}var rr=e=>U(e===null?null:e*100),ar={function:"function",calls:"calls",self_ns:"self_ns",self_share:"self_ns",self_per_call_ns:"self_per_call_ns",cumulative_ns:"cumulative_ns",cumulative_share:"cumulative_ns",cumulative_per_call_ns:"cumulative_per_call_ns"};function Ho(e){let t=e.builtin?"built-in":`${e.filename}:${e.line}`;return s("span",{class:"python-function",title:e.function},s("span",{class:"python-name"},e.name)," ",s("span",{class:"muted"},t))}var sr=[{key:"function",label:"function",numeric:!1,value:e=>e.function,render:Ho},{key:"calls",label:"calls",title:"All calls; after a slash, the primitive (non-recursive) ones where they differ, as pstats prints ncalls",numeric:!0,value:e=>e.calls,format:e=>e.calls===e.primitive_calls?b(e.calls):`${b(e.calls)}/${b(e.primitive_calls)}`},{key:"self_ns",label:"self",title:"Time in the function itself (pstats tottime)",numeric:!0,value:e=>e.self_ns,format:e=>f(e.self_ns)},{key:"self_share",label:"self %",title:"Self time over the profiles' total time",numeric:!0,value:e=>e.self_share,format:e=>rr(e.self_share)},{key:"self_per_call_ns",label:"self / call",title:"Self time over all calls",numeric:!0,value:e=>e.self_per_call_ns,format:e=>f(e.self_per_call_ns)},{key:"cumulative_ns",label:"cumulative",title:"Including what it called (pstats cumtime)",numeric:!0,value:e=>e.cumulative_ns,format:e=>f(e.cumulative_ns)},{key:"cumulative_share",label:"cumulative %",title:"Cumulative time over the profiles' total time",numeric:!0,value:e=>e.cumulative_share,format:e=>rr(e.cumulative_share)},{key:"cumulative_per_call_ns",label:"cumulative / call",title:"Cumulative time over primitive calls",numeric:!0,value:e=>e.cumulative_per_call_ns,format:e=>f(e.cumulative_per_call_ns)}];function Do(){let e=L(),t=e.get("pysort"),n=e.get("pydir");return sr.some(r=>r.key===t)&&(n==="asc"||n==="desc")?{key:t,direction:n}:{key:"self_ns",direction:"desc"}}function Io(e){return s("section",{class:"panel"},s("h2",{},"Profiles"),s("div",{class:"table-scroll"},A({columns:[{key:"rank",label:"rank",numeric:!0,value:t=>t.rank},{key:"file",label:"file",numeric:!1,value:t=>t.file},{key:"total_ns",label:"total time",numeric:!0,value:t=>t.total_ns,format:t=>f(t.total_ns)},{key:"calls",label:"calls",numeric:!0,value:t=>t.calls,format:t=>b(t.calls)},{key:"primitive_calls",label:"primitive calls",numeric:!0,value:t=>t.primitive_calls,format:t=>b(t.primitive_calls)}],rows:e,testId:"python-files",rowTestId:"python-file",rowName:t=>t.file})))}var or={id:"python",label:"Python",usesRankSelect:!0,available:e=>e.sources.includes("pstats"),async show({run:e,rank:t,signal:n,onProgress:r,params:a}){let o=L(),i=s("input",{type:"search",class:"search-input",placeholder:"Filter functions","aria-label":"Filter functions","data-testid":"python-filter",value:String(a.q??o.get("pyq")??"")}),l=s("input",{type:"checkbox","data-testid":"python-builtins"});l.checked=o.get("pybuiltins")!=="0";let c=s("p",{class:"muted","data-testid":"python-caption"}),u=s("div",{class:"table-scroll"}),d=s("div"),p=Do(),m=null,h=()=>{if(m===null)return;let y=l.checked?m.rows:m.rows.filter($=>!$.builtin),_=m.total_rows>m.rows.length?`the first ${b(m.rows.length)} of `:"",B=m.q?` match “${m.q}” of ${b(m.functions)}`:"";c.textContent=`${_}${b(m.total_rows)} functions${B}; ${f(m.total_ns)} profiled in ${b(m.files.length)} file(s), ${b(m.calls)} calls.`;let T=m.rows.length===0&&m.empty_reason!==null?m.empty_reason:m.files.length===0?"No cProfile/pstats files in this run (drop .prof files into the run directory or its plugins/tb_perf/imported/, or use `tb-perf ingest`).":"No function matches.";u.replaceChildren(y.length===0?s("p",{class:"muted","data-testid":"python-empty"},T):A({columns:sr,rows:y,testId:"python-table",rowTestId:"python-row",rowName:$=>$.function,pageSize:ee,sort:p,onSortChange:$=>{let C=m!==null&&m.total_rows>m.rows.length&&ar[$.key]!==m.sort;p=$,E({pysort:$.key,pydir:$.direction}),C&&w()}})),d.replaceChildren(Io(m.files))},v=new AbortController,g=async y=>{let _=i.value.trim();m=await No(e,t,ar[p.key]??"self_ns",_,y,r),h()},w=()=>{v.abort(),v=new AbortController,g(v.signal).catch(y=>{y instanceof DOMException&&y.name==="AbortError"||(c.textContent=`Could not load the function table: ${String(y)}`)})},k;return i.addEventListener("input",()=>{clearTimeout(k),E({pyq:i.value.trim()===""?null:i.value}),k=setTimeout(w,Po)}),l.addEventListener("change",()=>{E({pybuiltins:l.checked?null:"0"}),h()}),await g(n),s("div",{class:"overview","data-testid":"python"},s("section",{class:"panel"},s("h2",{},"Python functions"),s("div",{class:"controls"},i,s("label",{},l," built-ins")),c,u),d)}};function Oo(e,t,n){return M(`./tasks?${P(e)}`,t,n)}var he=(e,t)=>I(e,t,n=>n[e]),Wo=[{key:"name",label:"operator",numeric:!1,value:e=>e.name},{key:"category",label:"kind",numeric:!1,value:e=>e.category},{key:"count",label:"count",numeric:!0,value:e=>e.count,format:e=>b(e.count)},he("total_ns","total"),he("mean_ns","mean"),he("median_ns","median"),he("std_ns","std"),he("min_ns","min"),he("max_ns","max")];function Fo(e){let t=e.invocations.map(n=>n.error!==void 0?`#${n.index}: ${n.error}`:`#${n.index} ${f(n.duration_ns??null)}`);return`${b(e.invocations_seen)} invocation(s) seen; traced: ${t.join(", ")||"none"}.`}function Bo(e){return s("section",{class:"panel","data-testid":"task","data-name":`${e.task_type}/${e.rank}`},s("h2",{},`${e.task_type} — rank ${e.rank}`),s("p",{class:"muted"},Fo(e)," Operators matching ",s("code",{},e.ops_pattern),"."),e.operators.length===0?s("p",{class:"muted"},"No operator of the traced invocations matches the pattern."):s("div",{class:"table-scroll"},A({columns:Wo,rows:e.operators,testId:"task-operators",rowTestId:"task-operator",rowName:t=>`${t.category}/${t.name}`,sort:{key:"total_ns",direction:"desc"}})))}var ir={id:"tasks",label:"Tasks",usesRankSelect:!1,available:e=>e.sources.includes("tasks"),async show({run:e,signal:t,onProgress:n}){let r=await Oo(e,t,n);return s("div",{class:"overview","data-testid":"tasks"},r.warnings.length?s("section",{class:"warnings",role:"status"},s("ul",{},...r.warnings.map(a=>s("li",{},a)))):null,r.tasks.length===0?s("p",{class:"muted","data-testid":"tasks-empty"},r.empty_reason??"No profile_task summaries in this run (set PROFILE_TASK_TYPES; docs/CAPTURE.md)."):null,...r.tasks.map(Bo))}};var _t={window:null,selected:null,enabledRanks:null,search:""};function xt(e){if(e===null||e.trim()==="")return null;let t=Number(e);return Number.isSafeInteger(t)?t:null}function lr(e,t){if(e===null)return null;if(e==="")return[];let n=e.split(t).map(xt);return n.every(r=>r!==null)?n:null}function cr(){let e=L(),t=xt(e.get("start")),n=xt(e.get("end")),r=lr(e.get("sel"),":"),[a,o]=r?.length===2?r:[];return{window:t!==null&&n!==null&&n>t?{start:t,end:n}:null,selected:a!==void 0&&o!==void 0?{rank:a,id:o}:null,enabledRanks:lr(e.get("ranks"),","),search:e.get("q")??""}}function ne(e){let t={};e.window!==void 0&&(t.start=e.window&&String(Math.round(e.window.start)),t.end=e.window&&String(Math.round(e.window.end))),e.selected!==void 0&&(t.sel=e.selected&&`${e.selected.rank}:${e.selected.id}`),e.enabledRanks!==void 0&&(t.ranks=e.enabledRanks&&e.enabledRanks.join(",")),e.search!==void 0&&(t.q=e.search===""?null:e.search),E(t)}var zo=1e3;function dr(e,t){return t!==null&&e.set("ranks",t.join(",")),e}function ur(e,t,n){return M(`./timeline/meta?${new URLSearchParams({run:e})}`,t,n)}function mr(e,t,n,r){let a=new URLSearchParams({run:e,start:String(t.start),end:String(t.end),width_px:String(t.widthPx)});return M(`./timeline/tiles?${dr(a,t.ranks)}`,n,r)}function St(e,t,n){let r=new URLSearchParams({run:e,rank:String(t.rank),id:String(t.id)});return M(`./timeline/event?${r}`,n)}function pr(e,t,n,r){let a=new URLSearchParams({run:e,q:t,limit:String(zo)});return M(`./timeline/search?${dr(a,n)}`,r)}function hr(e,t,n){return e.map(({rank:r})=>{let a=s("button",{type:"button",class:"rank-toggle","aria-pressed":String(t(r)),"data-testid":"timeline-rank-toggle","data-rank":r,title:`Show or hide rank ${r}`},`rank ${r}`);return a.addEventListener("click",()=>n(r)),a})}function Go(e,t){let n=new Set;for(let r of e.split(",").map(a=>a.trim()).filter(a=>a!=="")){let a=/^(\d+)(?:\s*-\s*(\d+))?$/.exec(r);if(!a)return null;let o=Number(a[1]),i=a[2]===void 0?o:Number(a[2]);if(i<o)return null;for(let l=o;l<=i&&n.size<=t.size;l++)t.has(l)&&n.add(l)}return n.size?[...n].sort((r,a)=>r-a):null}function Tt(e){let t=[];for(let n=0;n<e.length;){let r=n;for(;r+1<e.length&&e[r+1]===(e[r]??0)+1;)r++;t.push(n===r?String(e[n]):`${e[n]}-${e[r]}`),n=r+1}return t.join(", ")}function fr(e,t,n){let r=new Set(e.map(o=>o.rank)),a=s("input",{type:"text",value:Tt(t),placeholder:"e.g. 0-7, 37",size:16,"data-testid":"timeline-rank-picker","aria-label":"Ranks to show"});return a.addEventListener("change",()=>{let o=Go(a.value,r);a.setAttribute("aria-invalid",String(o===null)),a.title=o===null?`Ranks as a list such as "0-7, 37", of ranks 0–${Math.max(...r)}`:"",o&&n(o)}),s("label",{class:"rank-picker"},"Ranks ",a,s("span",{class:"muted"},` ${t.length} of ${e.length}`))}function br(e,t){let n=s("select",{"data-testid":"timeline-step-select","aria-label":"Jump to step",disabled:e.length===0},s("option",{value:""},e.length===0?"No steps":"Jump to step…"),...e.map((r,a)=>s("option",{value:String(a)},`step ${r.step} (${f(r.end-r.start)})`)));return n.addEventListener("change",()=>{let r=e[Number(n.value)];n.value!==""&&r&&t(r)}),n}function gr(e){let t=s("input",{type:"number",min:0,step:1,placeholder:"step #","data-testid":"timeline-step-input","aria-label":"Go to step number",class:"step-input"});return t.addEventListener("change",()=>{let n=Number(t.value);t.value.trim()!==""&&Number.isSafeInteger(n)&&e(n)}),t}function Uo(e){return typeof e=="string"?e:JSON.stringify(e)}function Z(e,t){return s("tr",{},s("th",{scope:"row"},e),s("td",{},t))}function Ko(e){let{event:t,peer:n}=e,r=t.flow;if(r===null)return null;let o=t.kind==="runtime"?"Launches":"Launched by",i=n?.name??`event ${r.id}`,l=s("button",{type:"button",class:"link-button","data-testid":"timeline-flow-link"},`${i} (rank ${r.rank}, ${e.laneLabel(r.lane)}) →`);return l.addEventListener("click",()=>e.onJump({rank:r.rank,id:r.id})),Z(o,l)}function yr(e){let{event:t,zero:n}=e,r=s("button",{type:"button",class:"link-button"},"Zoom to event");r.addEventListener("click",e.onZoom);let a=Object.entries(t.args);return s("div",{class:"details-body"},s("div",{class:"details-header"},s("h2",{class:"details-title",title:t.name},t.name),r),s("table",{class:"details-table"},s("tbody",{},Z("kind",t.kind),Z("rank",String(t.rank)),Z("lane",e.laneLabel(t.lane)),Z("step",t.step===null?"—":String(t.step)),Z("start",`${ae(t.start-n)} from run start`),Z("duration",`${f(t.dur)} (${t.dur.toLocaleString("en-US")} ns)`),Z("event id",String(t.id)),Ko(e))),a.length===0?null:s("table",{class:"details-table details-args","data-testid":"timeline-details-args"},s("caption",{},"Arguments"),s("tbody",{},...a.map(([o,i])=>Z(o,Uo(i))))))}function Xo(e){return e.kind==="counter"?36:Math.max(1,e.rows)*18+6}function vr(e,t,n){let r=[],a=new Map,o=0;for(let i of e.ranks){if(!t.has(i.rank))continue;let l=n.has(i.rank);if(r.push({type:"rank",rank:i,collapsed:l,top:o,height:24}),o+=24,!l)for(let c of i.lanes){let u={type:"lane",rank:i.rank,lane:c,top:o,height:Xo(c)};r.push(u),a.set(c.id,u),o+=u.height}}return{bands:r,lanes:a,height:o}}function wr(e,t){return e.bands.find(n=>t>=n.top&&t<n.top+n.height)??null}function fe(e,t){return e.top+3+t*18}function kr(e,t){let n=Math.floor((t-e.top-3)/18);return n>=0&&n<e.lane.rows?n:-1}function xr(e){return e.bands.flatMap(t=>t.type==="rank"&&!t.collapsed?[t.rank.rank]:[])}var qo={clock_sync:"The collectors measured this rank's clock offset to rank 0.",collectives:"Offset fitted so that the same collectives end together on every rank.",steps:"Offset chosen so that this rank's step boundaries line up with the other ranks'.",reference:"Rank 0's own clock: the reference the other ranks are aligned to.",none:"Not aligned: no clock sync, collectives or steps to align with."};function _r(e){let{method:t,uncertainty_ns:n}=e;return t==="reference"||t==="none"?t:`${t} ±${f(n)}`}function Sr(e){let t=[qo[e.method]??e.method];if(e.method!=="reference"&&e.method!=="none"){if(t.push(`Offset added to this rank's clock: ${f(e.offset_ns)}.`,`Remaining error at most ±${f(e.uncertainty_ns)}.`),e.method==="collectives"||e.method==="steps"){let n=e.outliers?`, ${e.outliers} set aside as outliers`:"";t.push(`Fitted on ${e.pairs} matched pairs${n}.`)}e.drift_ns_per_s!==null&&t.push(`Clock drift corrected: ${f(e.drift_ns_per_s)} per s.`)}return t}var Vo=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]],jo=1e4;function Yo(e){let t=10**Math.floor(Math.log10(e));return[1,2,5,10].map(n=>n*t).find(n=>n>=e)??10*t}function Tr(e){return Vo.find(([t])=>e>=t)??[1,"ns"]}function Mr(e,t){return Math.max(0,Math.ceil(-Math.log10(e/t)-1e-9))}function Rr(e,t,n,r,a){let o=Math.max(1,Yo((t-e)/Math.max(1,n)*r)),i=Math.ceil((e-a)/o)*o,l=Math.abs(i)/o>jo,c=o*100,u=l?Math.floor(i/c)*c:0,d=[];for(let k=i;a+k<t;k+=o)d.push(k);let p=Math.max(o,...d.map(k=>Math.abs(k-u))),[m,h]=Tr(p),v=Mr(o,m),g=d.map(k=>`${l?"+":""}${((k-u)/m).toFixed(v)} ${h}`),w=null;if(l){let[k,y]=Tr(Math.abs(u)||1);w=`${(u/k).toFixed(Mr(c,k))} ${y}`}return{ticks:d.map(k=>a+k),labels:g,baseLabel:w}}var V="all";function Mt(e,t,n){let r=t===V?void 0:e[t];return r?qe(r.start_ns,r.end_ns):qe(n.start,n.end)}function Rt(e,t,n){let r=-1,a=-1;return e.forEach((o,i)=>{let l=Math.min(n,o.end_ns)-Math.max(t,o.start_ns);t<=o.end_ns&&n>=o.start_ns&&l>a&&(r=i,a=l)}),r}function Er(e,t){if(e.length<=1)return V;if(t===null)return 0;let n=Rt(e,t.start,t.end),r=e[n];return r&&t.start>=r.start_ns-$r(r)&&t.end<=r.end_ns+$r(r)?n:V}function $r(e){let t=qe(e.start_ns,e.end_ns);return e.start_ns-t.start}function Lr(e,t,n,r,a){let o=Mt(e,t,a);if(n>=o.start&&r<=o.end)return t;let i=Rt(e,n,r);return i>=0?i:V}function Ar(e){let t=[];for(let n=1;n<e.length;n+=1){let r=e[n-1],a=e[n];r&&a&&a.start_ns>r.end_ns&&t.push({start:r.end_ns,end:a.start_ns})}return t}function Cr(e,t,n){let r=t.find(i=>i.step===n),a=t.length>0?` This run recorded steps ${Tt(t.map(i=>i.step).sort((i,l)=>i-l))}.`:" This run recorded no steps.";if(!r)return{message:`Step ${n} is outside every recorded window: no trace or span holds it.${a}`};let o=Rt(e,r.start,r.end);return o<0&&e.length>0?{message:`Step ${n} is outside every recorded window.${a}`}:{extent:r,window:o}}function Jo(e,t){return`${t+1}. ${e.label} (${f(e.end_ns-e.start_ns)})`}function Pr(e){return`not recorded · ${f(e.end-e.start)}`}function Nr(e,t,n){let r=s("select",{"data-testid":"timeline-window-select","aria-label":"Recorded window"},...e.map((a,o)=>s("option",{value:String(o)},Jo(a,o))),s("option",{value:V},`All ${e.length} windows, gaps marked`));return r.value=String(t),r.addEventListener("change",()=>n(r.value===V?V:Number(r.value))),r}var tt="11px Roboto, 'Helvetica Neue', Arial, sans-serif",Zo="500 12px Roboto, 'Helvetica Neue', Arial, sans-serif",Qo=110,ei=1,ti=28,ni=.45,ri=10;function ai(e){let{window:t,width:n}=e,r=(n-220)/Math.max(1,t.end-t.start);return{x:a=>220+(a-t.start)*r,left:220,right:n}}var Et=0;function si(e){if(Et===0){let t="aten::addmm_sgemm_128x64_nn cudaLaunchKernel ProfilerStep#12";Et=e.measureText(t).width/t.length}return Et}function nt(e,t,n){let r=Math.floor(n/si(e));return r<2?null:t.length<=r?t:`${t.slice(0,r-1)}…`}function oi(e){let t=e.scrollTop,n=t+e.height-28;return e.layout.bands.filter(r=>r.type==="lane"&&r.top+r.height>t&&r.top<n)}function ii(e,t,n,r,a){let{theme:o,tile:i}=a,l=u=>{let d=r.x(t.start[u]??0),p=r.x(t.end[u]??0);if(p<r.left||d>r.right)return null;let m=Math.round(Math.max(d,r.left-1)),h=Math.round(Math.min(p,r.right+1));return[m,Math.max(h-m,ei)]},c=(u,d)=>{e.rect(d[0],fe(n,t.row[u]??0)+1,d[1],16)};for(let u=0;u<40;u+=1){let d=t.colorOffsets[u]??0,p=t.colorOffsets[u+1]??0;if(d!==p){e.fillStyle=o.boxes[u]??o.accent;for(let m of[!1,!0]){e.beginPath();for(let h=d;h<p;h+=1){let v=t.byColor[h]??0;if((t.count[v]??1)>1!==m)continue;let g=l(v);g&&c(v,g)}e.globalAlpha=m?ni:1,e.fill()}}}e.globalAlpha=1,e.fillStyle=o.boxText;for(let u=0;u<t.size;u+=1){let d=l(u);if(d===null||d[1]<ti)continue;let p=i?.names[t.name[u]??0]??"",m=t.count[u]??1,h=nt(e,m>1?`${b(m)} × ${p}`:p,d[1]-6);h!==null&&e.fillText(h,d[0]+3,fe(n,t.row[u]??0)+18/2)}}function Dr(e){let t=0;for(let n of e.value)t=Math.max(t,n);return t||1}function At(e,t){return/bytes/i.test(e)?Q(t):b(t)}function li(e,t,n,r,a){let{t:o,value:i}=t;if(o.length===0)return;let l=Dr(t),c=n.top+n.height-2,u=p=>c-p/l*(n.height-8),d=Math.min(r.x(a.tile?.end??a.window.end),r.right);e.beginPath(),e.moveTo(r.x(o[0]??0),c);for(let p=0;p<o.length;p+=1){let m=Math.max(r.x(o[p]??0),r.left-1),h=Math.min(p+1<o.length?r.x(o[p+1]??0):d,r.right+1),v=u(i[p]??0);e.lineTo(m,v),e.lineTo(h,v)}e.lineTo(d,c),e.closePath(),e.globalAlpha=.3,e.fillStyle=a.theme.accent,e.fill(),e.globalAlpha=1,e.strokeStyle=a.theme.accent,e.lineWidth=1,e.stroke()}function ci(e,t,n){let r=t.layout.lanes.get(e.lane);if(!r)return null;let a=Math.max(n.x(e.start),n.left-2),o=Math.min(n.x(e.end),n.right+2);return[a,fe(r,e.row),Math.max(o-a,2)]}function Hr(e,t,n,r,a){let o=ci(t,n,r);o&&(e.lineWidth=a,e.strokeStyle=n.theme.text,e.strokeRect(o[0],o[1]+.5,o[2],17))}function di(e,t,n,r){let a=n.layout.lanes.get(t.from.lane),o=n.layout.lanes.get(t.to.lane);if(!a||!o)return;let i=r.x(t.from.start),l=fe(a,t.from.row)+18/2,c=r.x(t.to.start),u=fe(o,t.to.row)+18/2,d=Math.max(20,Math.abs(u-l)/2);e.strokeStyle=n.theme.accent,e.fillStyle=n.theme.accent,e.lineWidth=1.5,e.beginPath(),e.moveTo(i,l),e.bezierCurveTo(i,l+Math.sign(u-l||1)*d,c,u-Math.sign(u-l||1)*d,c,u),e.stroke();let p=Math.sign(u-l||1);e.beginPath(),e.moveTo(c,u),e.lineTo(c-4,u-p*8),e.lineTo(c+4,u-p*8),e.closePath(),e.fill();for(let[m,h]of[[i,l],[c,u]])e.beginPath(),e.arc(m,h,3,0,2*Math.PI),e.fill()}function ui(e,t,n){let r=t.scrollTop,a=t.height-28;for(let o of t.gaps){let i=Math.max(n.x(o.start),n.left),l=Math.min(n.x(o.end),n.right);if(l<=i)continue;e.fillStyle=t.theme.surface,e.fillRect(i,r,l-i,a),e.save(),e.beginPath(),e.rect(i,r,l-i,a),e.clip(),e.strokeStyle=t.theme.border,e.lineWidth=1,e.beginPath();for(let u=i-a;u<l;u+=ri)e.moveTo(u,r+a),e.lineTo(u+a,r);e.stroke(),e.restore();let c=nt(e,Pr(o),l-i-8);c&&(e.fillStyle=t.theme.mutedText,e.textAlign="center",e.fillText(c,(i+l)/2,r+12),e.textAlign="start")}}function mi(e,t){let{theme:n,width:r}=t,a=t.scrollTop,o=a+t.height-28;e.fillStyle=n.surface,e.fillRect(0,a,220,o-a),e.textBaseline="middle";for(let i of t.layout.bands)if(!(i.top+i.height<=a||i.top>=o)){if(i.type==="rank"){e.fillStyle=n.grid,e.fillRect(0,i.top,r,24),e.font=Zo,e.fillStyle=n.text;let l=`${i.collapsed?"▸":"▾"} rank ${i.rank.rank}`;e.fillText(l,8,i.top+24/2),e.font=tt,e.fillStyle=n.mutedText;let c=nt(e,_r(i.rank.alignment),140);c&&e.fillText(c,76,i.top+24/2)}else{e.font=tt,e.fillStyle=n.text;let l=nt(e,i.lane.label,196);l&&e.fillText(l,16,i.top+Math.min(i.height,24)/2);let c=t.tile?.counters.get(i.lane.id);if(c&&c.t.length>0){e.fillStyle=n.mutedText;let u=`max ${At(i.lane.label,Dr(c))}`;e.fillText(u,16,i.top+i.height-9)}}e.fillStyle=n.border,e.fillRect(0,i.top+i.height-1,r,1)}e.fillRect(219,a,1,o-a)}function pi(e,t,n,r){let{theme:a,width:o}=n;e.fillStyle=a.background,e.fillRect(0,0,o,28),e.fillStyle=a.border,e.fillRect(0,27,o,1),e.font=tt,e.textBaseline="middle",e.fillStyle=a.mutedText,e.fillText(t.baseLabel?`from ${t.baseLabel}`:"from run start",8,28/2),t.ticks.forEach((i,l)=>{let c=Math.round(r.x(i))+.5;e.fillRect(c,22,1,5),e.fillText(t.labels[l]??"",c+3,28/2-2)})}function Ir(e,t){let{width:n,height:r,theme:a,tile:o,window:i}=t,l=ai(t),c=Rr(i.start,i.end,n-220,Qo,t.zero);e.fillStyle=a.background,e.fillRect(0,0,n,r),e.font=tt,e.textBaseline="middle",e.save(),e.beginPath(),e.rect(0,28,n,r-28),e.clip(),e.translate(0,28-t.scrollTop),mi(e,t),e.save(),e.beginPath(),e.rect(220,t.scrollTop,n-220,r),e.clip(),e.fillStyle=a.grid;for(let u of c.ticks)e.fillRect(Math.round(l.x(u)),t.scrollTop,1,r);ui(e,t,l);for(let u of oi(t)){let d=o?.lanes.get(u.lane.id);d&&ii(e,d,u,l,t);let p=o?.counters.get(u.lane.id);p&&li(e,p,u,l,t)}t.hovered&&Hr(e,t.hovered,t,l,1),t.selected&&Hr(e,t.selected,t,l,2),t.flow&&di(e,t.flow,t,l),e.restore(),e.restore(),pi(e,c,t,l),t.emptyMessage!==null&&(e.fillStyle=a.mutedText,e.textAlign="center",e.fillText(t.emptyMessage,220+(n-220)/2,68),e.textAlign="start")}function Or(e,t){let n=new Uint32Array(t);for(let i=0;i<e.length;i+=1){let l=e[i]??0;n[l]=(n[l]??0)+1}let r=new Uint32Array(t+1);for(let i=0;i<t;i+=1)r[i+1]=(r[i]??0)+(n[i]??0);let a=r.slice(0,t),o=new Uint32Array(e.length);for(let i=0;i<e.length;i+=1){let l=e[i]??0;o[a[l]??0]=i,a[l]=(a[l]??0)+1}return[o,r]}function hi(e,t,n){for(let r=0;r+1<t.length;r+=1){let a=e.subarray(t[r]??0,t[r+1]??0);for(let o=1;o<a.length;o+=1)if((n[a[o]??0]??0)<(n[a[o-1]??0]??0)){a.sort((i,l)=>(n[i]??0)-(n[l]??0));break}}}function fi(e,t){let n=e.start.length,r=new Float64Array(n),a=new Float64Array(n),o=new Uint16Array(n),i=new Uint32Array(n),l=new Uint8Array(n),c=0;for(let h=0;h<n;h+=1){let v=e.start[h]??0;r[h]=v,a[h]=v+(e.dur[h]??0);let g=e.row[h]??0;o[h]=g,c=Math.max(c,g+1);let w=e.name[h]??0;i[h]=w,l[h]=t[w]??0}let[u,d]=Or(o,c);hi(u,d,r);let[p,m]=Or(l,40);return{size:n,start:r,end:a,row:o,name:i,count:Float64Array.from(e.count),eventId:Float64Array.from(e.id),byColor:p,colorOffsets:m,byRow:u,rowOffsets:d}}function Wr(e,t){let n=Uint8Array.from(e.names,Ue);return{start:e.start,end:e.end,nsPerPx:e.ns_per_px,ranksKey:t,names:e.names,lanes:new Map(e.lanes.map(r=>[r.id,fi(r.boxes,n)])),counters:new Map(e.counters.map(r=>[r.id,r])),flows:e.flows}}function Fr(e,t,n,r){let a=e.rowOffsets[t],o=e.rowOffsets[t+1];if(a===void 0||o===void 0)return-1;let i=a,l=o;for(;i<l;){let d=i+l>>1;(e.start[e.byRow[d]??0]??0)<=n+r?i=d+1:l=d}let c=-1,u=1/0;for(let d=i-1;d>=Math.max(a,i-2);d-=1){let p=e.byRow[d]??0,m=e.start[p]??0,h=e.end[p]??0,v=n<m?m-n:n>h?n-h:0;v<=r&&v<u&&(c=p,u=v)}return c}function Br(e,t,n){let{x:r,y:a,scrollTop:o,time:i,slack:l}=n;if(a<28)return null;let c=wr(e,a-28+o);if(!c)return null;if(c.type==="rank")return{rankBand:c.rank.rank};let u=kr(c,a-28+o),d=t?.lanes.get(c.lane.id),p=d&&u>=0&&r>=220?Fr(d,u,i,l):-1;return{band:c,box:p,row:u,time:i}}function bi(e,t){let n=e?.counters.get(t.band.lane.id);if(!n)return null;let r=-1;for(let o=0;o<n.t.length&&(n.t[o]??0)<=t.time;o+=1)r=o;let a=n.value[r];return a===void 0?null:[t.band.lane.label,At(t.band.lane.label,a)]}function zr(e,t,n,r,a){if(e===null)return null;if("rankBand"in e){let h=r?.ranks.find(w=>w.rank===e.rankBand),v=h&&a.has(h.rank)?"expand":"collapse";return{span:null,lines:h?[`rank ${h.rank} (click to ${v})`,...Sr(h.alignment)]:null,cursor:"pointer"}}let o=e.band.lane;if(t<220)return{span:null,lines:[o.label,`rank ${e.band.rank} · ${o.kind}`],cursor:""};if(o.kind==="counter")return{span:null,lines:bi(n,e),cursor:""};let i=n?.lanes.get(o.id);if(!i||e.box<0)return{span:null,lines:null,cursor:""};let l=i.start[e.box]??0,c=i.end[e.box]??0,u=i.count[e.box]??1,d=n?.names[i.name[e.box]??0]??"",p=r?.start??0,m=u>1?[`${b(u)} events`,`longest: ${d}`,`over ${f(c-l)} from ${ae(l-p)}`,"click to zoom in"]:[d,`duration ${f(c-l)}`,`start ${ae(l-p)}`];return{span:{lane:o.id,row:e.row,start:l,end:c},lines:m,cursor:""}}var gi=250,rt=class{constructor(t){this.options=t;this.input=s("input",{type:"search",class:"search-input",placeholder:"Search events by name","aria-label":"Search events by name","data-testid":"timeline-search",value:t.initialText});let n=s("button",{type:"button","data-testid":"timeline-prev",title:"Previous match (Shift+Enter)"},"‹ Prev"),r=s("button",{type:"button","data-testid":"timeline-next",title:"Next match (Enter)"},"Next ›");n.addEventListener("click",()=>{this.step(-1)}),r.addEventListener("click",()=>{this.step(1)}),this.input.addEventListener("input",()=>{this.options.onTextChange(this.text()),clearTimeout(this.typingTimer),this.typingTimer=window.setTimeout(()=>{this.refresh()},gi)}),this.input.addEventListener("keydown",a=>{a.key==="Enter"&&(a.preventDefault(),this.step(a.shiftKey?-1:1))}),this.element=s("div",{class:"search",role:"search"},this.input,this.count,n,r)}options;element;input;count=s("span",{class:"search-count","data-testid":"timeline-search-count","aria-live":"polite"});result=null;resultText="";index=-1;inFlight=new AbortController;typingTimer=0;text(){return this.input.value.trim()}refresh(){clearTimeout(this.typingTimer),this.inFlight.abort(),this.inFlight=new AbortController;let t=this.inFlight.signal,n=this.text();return this.index=-1,n===""?(this.result=null,this.resultText="",this.showCount(),Promise.resolve()):(this.count.textContent="…",this.options.search(n,t).then(r=>{t.aborted||(this.result=r,this.resultText=n,this.showCount())},r=>{t.aborted||(this.result=null,this.count.textContent="search failed",this.count.title=r instanceof z?r.message:String(r))}))}async step(t){(this.result===null||this.resultText!==this.text())&&await this.refresh();let n=this.result?.matches??[];if(n.length===0)return;if(this.index===-1){let a=this.options.viewStart(),o=n.findIndex(l=>l.start>=a),i=o===-1?0:o;this.index=t===1?i:(i-1+n.length)%n.length}else this.index=(this.index+t+n.length)%n.length;this.showCount();let r=n[this.index];r&&this.options.onMatch(r)}showCount(){let t=this.result;this.count.title="",t===null?this.count.textContent="":t.total===0?this.count.textContent="no matches":this.index===-1?this.count.textContent=`${b(t.total)} ${t.total===1?"match":"matches"}`:this.count.textContent=`${b(this.index+1)} / ${b(t.total)}`,t!==null&&t.total>t.matches.length&&(this.count.title=`Next and previous visit the first ${b(t.matches.length)} matches in time order.`)}};function Pt(e,t){return e!==null&&t!==null&&e.rank===t.rank&&e.id===t.id}function Ct(e){return{lane:e.lane,row:e.row,start:e.start,end:e.start+e.dur}}function Gr(e,t,n){if(!t||!Pt(t,e))return{selected:null,flow:null};let r=Ct(t);return n?t.kind==="runtime"?{selected:r,flow:{from:r,to:Ct(n)}}:{selected:r,flow:{from:Ct(n),to:r}}:{selected:r,flow:null}}var at=class{constructor(t,n){this.scene=t;this.onResize=n;let r=this.canvas.getContext("2d",{alpha:!1});if(r===null)throw new Error("This browser cannot draw on a canvas.");this.ctx=r,this.theme=Se(),this.scroller.append(this.canvas,this.spacer),this.scroller.addEventListener("scroll",()=>this.scheduleDraw());let a=new ResizeObserver(()=>this.resize());a.observe(this.scroller);let o=new MutationObserver(()=>{this.theme=Se(),this.scheduleDraw()});o.observe(document.documentElement,{attributes:!0,attributeFilter:["data-theme"]}),this.observers.push(a,o)}scene;onResize;canvas=s("canvas",{class:"timeline-canvas",tabindex:0,"data-testid":"timeline-canvas","aria-label":"Timeline: W/S or the wheel zoom, A/D or dragging pan, click selects"});scroller=s("div",{class:"timeline-scroller"});spacer=s("div",{class:"timeline-spacer"});tooltip=s("div",{class:"chart-tooltip timeline-tooltip",hidden:!0});status=s("div",{class:"timeline-status","data-testid":"timeline-status",hidden:!0});element=s("div",{class:"timeline-stage"},this.scroller,this.tooltip,this.status);ctx;theme;observers=[];size={width:0,height:0,dpr:1};lanesHeight=0;drawPending=!1;get width(){return this.size.width}get scrollTop(){return this.scroller.scrollTop}setLanesHeight(t){this.lanesHeight=t,this.spacer.style.height=`${Math.max(0,28+t-this.size.height)}px`}scheduleDraw(){this.drawPending||(this.drawPending=!0,requestAnimationFrame(()=>this.drawNow()))}showTooltip(t,n,r){if(t===null){this.tooltip.hidden=!0;return}let[a,...o]=t;this.tooltip.replaceChildren(s("div",{class:"tooltip-title"},a??""),...o.map(l=>s("div",{},l))),this.tooltip.hidden=!1;let i=n+16+this.tooltip.offsetWidth>this.size.width;this.tooltip.style.left=`${i?n-12-this.tooltip.offsetWidth:n+16}px`,this.tooltip.style.top=`${r+16}px`}showProgress(t){let n=Math.round(Math.min(1,Math.max(0,t.fraction))*100);this.status.removeAttribute("role"),this.status.textContent=`Reading run files… ${n} % (${Q(t.done_bytes)} of ${Q(t.total_bytes)})`,this.status.hidden=!1}showError(t){let n=t instanceof z?`${t.message} (${t.code})`:String(t);this.status.setAttribute("role","alert"),this.status.textContent=`Could not load this part of the timeline: ${n}`,this.status.hidden=!1}hideStatus(){this.status.hidden=!0}dispose(){for(let t of this.observers)t.disconnect()}resize(){let t=this.scroller.clientWidth,n=this.scroller.clientHeight,r=window.devicePixelRatio||1;t===this.size.width&&n===this.size.height&&r===this.size.dpr||(this.size={width:t,height:n,dpr:r},!(t===0||n===0)&&(this.canvas.style.width=`${t}px`,this.canvas.style.height=`${n}px`,this.canvas.width=Math.round(t*r),this.canvas.height=Math.round(n*r),this.setLanesHeight(this.lanesHeight),this.onResize(),this.drawNow()))}drawNow(){this.drawPending=!1;let{width:t,height:n,dpr:r}=this.size;if(t===0||n===0)return;let a=this.scene();a!==null&&(this.ctx.setTransform(r,0,0,r,0,0),Ir(this.ctx,{width:t,height:n,scrollTop:this.scroller.scrollTop,theme:this.theme,...a}))}};var yi=60,Ur=8192,vi=1.5;function Xr(e){return e===null?"all":e.join(",")}function Kr(e,t){if(e===null||e.ranksKey!==Xr(t.ranks))return!1;let{window:n,extent:r}=t,a=(n.end-n.start)/t.widthPx;return e.start<=Math.max(n.start,r.start)&&e.end>=Math.min(n.end,r.end)&&e.nsPerPx<=a*vi}function wi(e){let{window:t,extent:n}=e,r=t.end-t.start,a=r/e.widthPx,o=Math.max(0,Math.min(r/2,(Ur*a-r)/2)),i=Math.floor(Math.max(n.start,t.start-o)),l=Math.ceil(Math.min(n.end,t.end+o)),c=Math.min(Ur,Math.max(1,Math.round((l-i)/a)));return{start:i,end:Math.max(l,i+1),widthPx:c,ranks:e.ranks,nsPerPx:(l-i)/c,ranksKey:Xr(e.ranks)}}var st=class{constructor(t,n){this.run=t;this.listener=n}run;listener;timer=0;inFlight=null;want(t,n){clearTimeout(this.timer),!(Kr(n,t)||Kr(this.inFlight?.query??null,t))&&(this.timer=window.setTimeout(()=>this.fetch(t),yi))}refetch(t){clearTimeout(this.timer),this.fetch(t)}cancel(){clearTimeout(this.timer),this.inFlight?.controller.abort(),this.inFlight=null}fetch(t){this.cancel();let n=wi(t),r=new AbortController;this.inFlight={query:n,controller:r},mr(this.run,n,r.signal,this.listener.onProgress).then(a=>{r.signal.aborted||(this.inFlight=null,this.listener.onTile(Wr(a,n.ranksKey)))},a=>{r.signal.aborted||(this.inFlight=null,this.listener.onError(a))})}};var ki=200,xi=2,_i=1,ot=class{constructor(t,n){this.run=t;this.window=n.window,this.selected=n.selected,this.enabledRanks=n.enabledRanks&&new Set(n.enabledRanks),this.selected&&(this.canvas.dataset.selected=`${this.selected.rank}:${this.selected.id}`),this.search=new rt({initialText:n.search,search:(a,o)=>pr(this.run,a,this.enabledRankList(),o),onMatch:a=>this.showMatch(a),onTextChange:a=>ne({search:a}),viewStart:()=>this.window?.start??0}),this.tiles=new st(t,{onTile:a=>{this.tile=a,this.stage.hideStatus(),this.scheduleDraw()},onProgress:a=>this.stage.showProgress(a),onError:a=>this.stage.showError(a)});let r=s("button",{type:"button","data-testid":"timeline-reset"},"Reset zoom");r.addEventListener("click",()=>this.setWindow(this.bounds)),this.element=s("div",{class:"timeline","data-testid":"timeline","data-run":t},s("div",{class:"timeline-toolbar"},this.rankToggleGroup,this.windowPicker,this.stepPicker,r,this.windowNote,this.search.element,s("span",{class:"muted hint"},"W/S or wheel: zoom · A/D or drag: pan · Esc: deselect")),this.stage.element,this.details),Ye(this.canvas,{zoomAt:(a,o)=>this.zoomAt(a,o),panBy:a=>this.panBy(a),timeAreaWidth:()=>this.timeAreaWidth(),clickAt:(a,o)=>this.clickAt(a,o),hoverAt:(a,o)=>this.hoverAt(a,o),hoverEnd:()=>this.setHover(null,null),escape:()=>this.select(null,!1)},{timeAreaLeft:220,keys:!0})}run;element;loaded=!1;meta=null;layout={bands:[],lanes:new Map,height:0};bounds={start:0,end:1};choice=V;gaps=[];window;enabledRanks;collapsedRanks=new Set;tile=null;selected;selectedEvent=null;flowPeer=null;hovered=null;selectionRequest=new AbortController;stage=new at(()=>this.sceneParts(),()=>this.requestTiles(!1));canvas=this.stage.canvas;details=s("section",{class:"timeline-details","data-testid":"timeline-details","aria-live":"polite"},s("p",{class:"muted"},"Click an event to see its details."));rankToggleGroup=s("div",{class:"rank-toggles",role:"group","aria-label":"Ranks"});stepPicker=s("label",{class:"step-picker"});windowPicker=s("label",{class:"window-picker"});windowNote=s("span",{class:"window-note",role:"status","data-testid":"timeline-window-note",hidden:!0});search;tiles;hashTimer=0;async load(t,n,r=[]){let a=await ur(this.run,t,n);if(t.aborted)return;if(this.enabledRanks===null&&a.ranks.length>ue){let i=a.ranks.map(u=>u.rank),l=r.filter(u=>i.includes(u)),c=l.length>0?l:await mn(this.run,i,t);if(t.aborted)return;this.enabledRanks=new Set(c),ne({enabledRanks:this.enabledRankList()})}let o=this.loaded&&(this.choice===V||this.choice<a.windows.length);this.meta=a,this.loaded=!0,this.gaps=Ar(a.windows),this.relayout(),this.pickWindow(o?this.choice:Er(a.windows,this.window),this.window),this.stepPicker.replaceChildren(br(a.steps,i=>this.showStep(i.step)),gr(i=>this.showStep(i))),this.tile=null,this.tiles.cancel(),this.requestTiles(!0),this.selected&&this.select(this.selected,!1),this.search.refresh()}showStep(t){let n=this.meta;if(!n)return;let r=Cr(n.windows,n.steps,t);if("message"in r){this.windowNote.textContent=r.message,this.windowNote.hidden=!1;return}n.windows.length>1&&r.window!==this.choice&&this.pickWindow(r.window),this.showRange(r.extent.start,r.extent.end,.02)}showRanks(t){let n=new Set(this.meta?.ranks.map(a=>a.rank)??[]),r=t.filter(a=>n.has(a));r.length>0&&this.setEnabledRanks(new Set(r))}revealRank(t){if(!this.meta?.ranks.some(r=>r.rank===t))return;let n=this.collapsedRanks.delete(t);this.enabledRanks!==null&&!this.enabledRanks.has(t)?this.setEnabledRanks(new Set([...this.enabledRanks,t])):n&&(this.relayout(),this.requestTiles(!1))}dispose(){this.tiles.cancel(),this.selectionRequest.abort(),this.stage.dispose()}enabledRankList(){return this.enabledRanks&&[...this.enabledRanks].sort((t,n)=>t-n)}isRankEnabled(t){return this.enabledRanks===null||this.enabledRanks.has(t)}relayout(){let t=this.meta;if(!t)return;let n=new Set(t.ranks.map(o=>o.rank).filter(o=>this.isRankEnabled(o)));this.layout=vr(t,n,this.collapsedRanks),this.canvas.dataset.ranks=[...n].sort((o,i)=>o-i).join(",");let r=t.ranks.length>ue,a=r?t.ranks.filter(o=>n.has(o.rank)):t.ranks;this.rankToggleGroup.replaceChildren(...r?[fr(t.ranks,[...n].sort((o,i)=>o-i),o=>this.setEnabledRanks(new Set(o)))]:[],...hr(a,o=>this.isRankEnabled(o),o=>this.toggleRank(o))),this.stage.setLanesHeight(this.layout.height),this.scheduleDraw()}toggleRank(t){let n=this.meta?.ranks.map(a=>a.rank)??[],r=this.enabledRanks??new Set(n);r.has(t)?r.delete(t):r.add(t),this.setEnabledRanks(r)}setEnabledRanks(t){let n=this.meta?.ranks.map(r=>r.rank)??[];this.enabledRanks=n.every(r=>t.has(r))?null:t,ne({enabledRanks:this.enabledRankList()}),this.relayout(),this.requestTiles(!1),this.search.refresh()}toggleCollapsed(t){this.collapsedRanks.has(t)?this.collapsedRanks.delete(t):this.collapsedRanks.add(t),this.relayout(),this.requestTiles(!1)}pickWindow(t,n=null){let r=this.meta;r&&(this.choice=t,this.bounds=Mt(r.windows,t,{start:r.start,end:r.end}),this.canvas.dataset.window=String(t),this.windowNote.hidden=!0,this.windowPicker.replaceChildren(...r.windows.length>1?[Nr(r.windows,t,a=>this.pickWindow(a))]:[]),this.setWindow(n??this.bounds))}showRange(t,n,r){let a=this.meta;if(!a)return;let o=Lr(a.windows,this.choice,t,n,{start:a.start,end:a.end});o!==this.choice&&this.pickWindow(o),this.windowNote.hidden=!0,this.setWindow(Xe(t,n,r,this.bounds))}setWindow(t){this.window=te(t,this.bounds),this.canvas.dataset.start=String(Math.round(this.window.start)),this.canvas.dataset.end=String(Math.round(this.window.end));let n=this.window;this.canvas.dataset.gaps=String(this.gaps.filter(r=>r.start<n.end&&r.end>n.start).length),this.scheduleDraw(),this.requestTiles(!1),clearTimeout(this.hashTimer),this.hashTimer=window.setTimeout(()=>ne({window:this.window}),ki)}requestTiles(t){let n=this.meta,r=this.window,a=this.timeAreaWidth();if(!n||!r||a<=0)return;let o=xr(this.layout);if(o.length===0)return;let i=o.length===n.ranks.length,l={start:Math.max(n.start,this.bounds.start),end:Math.min(n.end,this.bounds.end)},c={window:r,widthPx:a,ranks:i?null:o,extent:l};t?this.tiles.refetch(c):this.tiles.want(c,this.tile)}timeAreaWidth(){return Math.max(0,this.stage.width-220)}timeAt(t){return Te(this.window??this.bounds,t,220,this.timeAreaWidth())}nsPerPx(){return Me(this.window??this.bounds,this.timeAreaWidth())}zoomAt(t,n){let r=this.window;r&&this.navigateTo(Ve(r,t,220,this.timeAreaWidth(),n,this.bounds))}panBy(t){this.window&&this.navigateTo(je(this.window,t,this.timeAreaWidth(),this.bounds))}navigateTo(t){(t.start!==this.window?.start||t.end!==this.window.end)&&this.setWindow(t)}select(t,n){this.selectionRequest.abort(),this.selectionRequest=new AbortController;let r=this.selectionRequest.signal;if(Pt(t,this.selectedEvent)||(this.selectedEvent=null,this.flowPeer=null),this.selected=t,t?this.canvas.dataset.selected=`${t.rank}:${t.id}`:delete this.canvas.dataset.selected,ne({selected:t}),this.scheduleDraw(),t===null){this.details.replaceChildren(s("p",{class:"muted"},"Click an event to see its details."));return}this.loadSelection(t,n,r)}async loadSelection(t,n,r){try{let a=await St(this.run,t,r);if(r.aborted)return;if(this.selectedEvent=a,n&&this.window){let o=a.start+a.dur,i=this.bounds;a.start>=i.start&&o<=i.end?this.setWindow(En(this.window,a.start,o,i)):this.showRange(a.start,o,.5)}if(this.showDetails(),this.scheduleDraw(),a.flow){if(this.flowPeer=await St(this.run,a.flow,r),r.aborted)return;this.showDetails(),this.scheduleDraw()}}catch(a){if(r.aborted)return;this.details.replaceChildren(s("p",{class:"error",role:"alert"},`Could not load the event: ${a instanceof z?a.message:String(a)}`))}}showDetails(){let t=this.selectedEvent;t&&this.details.replaceChildren(yr({event:t,peer:this.flowPeer,zero:this.meta?.start??0,laneLabel:n=>this.laneLabel(n),onJump:n=>{this.revealRank(n.rank),this.select(n,!0)},onZoom:()=>this.showRange(t.start,t.start+t.dur,.5)}))}laneLabel(t){for(let n of this.meta?.ranks??[]){let r=n.lanes.find(a=>a.id===t);if(r)return r.label}return t}showMatch(t){this.revealRank(t.rank),this.showRange(t.start,t.start+t.dur,_i),this.select({rank:t.rank,id:t.id},!1)}hitTest(t,n){let r={x:t,y:n,scrollTop:this.stage.scrollTop,time:this.timeAt(t),slack:xi*this.nsPerPx()};return Br(this.layout,this.tile,r)}clickAt(t,n){this.canvas.focus();let r=this.hitTest(t,n);if(r&&"rankBand"in r){this.toggleCollapsed(r.rankBand);return}let a=r&&this.tile?.lanes.get(r.band.lane.id);if(!r||!a||r.box<0){t>=220&&this.select(null,!1);return}let o=a.count[r.box]??1,i=a.start[r.box]??0,l=a.end[r.box]??0;o>1?this.setWindow(Xe(i,l,.1,this.bounds)):this.select({rank:r.band.rank,id:a.eventId[r.box]??-1},!1)}hoverAt(t,n){let r=zr(this.hitTest(t,n),t,this.tile,this.meta,this.collapsedRanks);if(r===null)return this.setHover(null,null);this.canvas.style.cursor=r.cursor,this.setHover(r.span,r.lines,t,n)}setHover(t,n,r=0,a=0){this.hovered=t,this.scheduleDraw(),this.stage.showTooltip(n,r,a)}scheduleDraw(){this.stage.scheduleDraw()}sceneParts(){return this.window?{window:this.window,zero:this.meta?.start??0,layout:this.layout,gaps:this.gaps,tile:this.tile,hovered:this.hovered,...Gr(this.selected,this.selectedEvent,this.flowPeer),emptyMessage:this.emptyMessage()}:null}emptyMessage(){return this.layout.bands.length>0?null:this.meta?.ranks.length?"Every rank is hidden: turn one on with the rank buttons above.":"This run has no timeline events: no MyTimer spans and no profiler traces yet."}};var Ee=null,Nt=!1;function Si(e){if(Ee?.run===e)return Ee;Ee?.dispose();let t=Nt?_t:cr();return Nt&&ne(_t),Nt=!0,Ee=new ot(e,t),Ee}var qr={id:"timeline",label:"Timeline",usesRankSelect:!1,async show({run:e,signal:t,refresh:n,onProgress:r,params:a}){let o=Si(e),i=String(a.ranks??"").split(",").filter(d=>d.trim()!=="").map(Number),l=i.every(Number.isInteger)?i:[];(n||!o.loaded)&&await o.load(t,r,l);let c=Number(a.rank);l.length>0?o.showRanks(l):a.rank!=null&&Number.isInteger(c)&&o.revealRank(c);let u=Number(a.step);return a.step!=null&&Number.isInteger(u)&&o.showStep(u),o.element}};var re=[nr,qr,Vn,xn,qn,or,ir,Dn,yn,Zt];var Ht="";function Dt(e){let t=re[0];if(t===void 0)throw new Error("no dashboards registered");return re.find(n=>n.id===e)??t}function Ti(e){let t=Math.round(Math.min(1,Math.max(0,e.fraction))*100),n=s("div",{class:"progress-bar"});return n.style.width=`${t}%`,s("div",{class:"progress","data-testid":"progress"},s("div",{class:"progress-track",role:"progressbar","aria-valuemin":0,"aria-valuemax":100,"aria-valuenow":t},n),s("p",{},`Reading run files… ${t} % (${Q(e.done_bytes)} of ${Q(e.total_bytes)})`))}function Vr(e,t){let n=t instanceof z?`${t.message} (${t.code})`:String(t);return s("div",{class:"error","data-testid":"error",role:"alert"},s("strong",{},e),s("p",{},n))}function Mi(){return s("div",{class:"empty","data-testid":"empty"},s("h2",{},"No runs yet"),s("p",{},"This logdir holds no tb-perf runs. See the README quick start to record one with the collectors (or point TensorBoard at a torch.profiler trace directory), then press TensorBoard's reload button."))}function jr(e){return e instanceof DOMException&&e.name==="AbortError"}var it=class{runs=[];run;rank;dashboard;inFlight=new AbortController;runSelect=s("select",{"data-testid":"run-select","aria-label":"Run"});runStatus=s("span",{class:"badge","data-testid":"run-status"});jobSelect=s("select",{"data-testid":"job-select","aria-label":"Job"});jobLabel=s("label",{hidden:!0},"Job ",this.jobSelect);rankSelect=s("select",{"data-testid":"rank-select","aria-label":"Rank"});rankLabel=s("label",{},"Rank ",this.rankSelect);tabs=re.map(t=>s("button",{type:"button",role:"tab",class:"tab","data-testid":`tab-${t.id}`},t.label));toolbar=s("header",{class:"toolbar",hidden:!0},s("nav",{class:"tabs",role:"tablist","aria-label":"Dashboards"},...this.tabs),s("label",{},"Run ",this.runSelect),this.jobLabel,this.runStatus,this.rankLabel);content=s("main",{class:"content"},s("p",{class:"muted"},"Loading runs…"));constructor(t){let n=L();this.run=n.get("run");let r=Number.parseInt(n.get("rank")??"",10);this.rank=Number.isInteger(r)?r:null,this.dashboard=Dt(n.get("dashboard")),this.showActiveTab(),this.tabs.forEach((a,o)=>a.addEventListener("click",()=>{let i=re[o];i===void 0||i===this.dashboard||this.open(i,{})})),this.runSelect.addEventListener("change",()=>{this.run=this.runSelect.value,this.showSelectedRun(),this.loadDashboard(this.restart(),!0)}),this.jobSelect.addEventListener("change",()=>{this.run=this.jobSelect.value,this.showSelectedRun(),this.loadDashboard(this.restart(),!0)}),this.rankSelect.addEventListener("change",()=>{this.rank=this.rankSelect.value===Ht?null:Number(this.rankSelect.value),this.saveSelection(),this.loadDashboard(this.restart(),!0)}),t.replaceChildren(s("div",{class:"app"},this.toolbar,this.content))}async reload(){let t=this.restart();try{this.runs=await Ce(t)}catch(n){jr(n)||this.content.replaceChildren(Vr("Could not list the runs",n));return}if(this.toolbar.hidden=this.runs.length===0,this.runs.length===0){this.run=null,this.content.replaceChildren(Mi());return}this.runSelect.replaceChildren(...this.runs.filter(n=>n.name===n.directory).map(n=>s("option",{value:n.name},`${n.name} (${n.status})`))),this.runs.some(n=>n.name===this.run)||(this.run=this.runs[0]?.name??null),this.showSelectedRun(),await this.loadDashboard(t,!0)}restart(){return this.inFlight.abort(),this.inFlight=new AbortController,this.inFlight.signal}open(t,n){this.dashboard=t;let r=Number(n.rank);t.usesRankSelect&&n.rank!=null&&Number.isInteger(r)&&(this.rank=r,this.rankSelect.value=String(r)),this.showActiveTab(),this.saveSelection(),this.loadDashboard(this.restart(),!1,n)}showActiveTab(){this.tabs.forEach((t,n)=>{let r=re[n]===this.dashboard;t.setAttribute("aria-selected",String(r)),t.classList.toggle("active",r)}),this.rankLabel.hidden=!this.dashboard.usesRankSelect}selectedRun(){return this.runs.find(t=>t.name===this.run)}showSelectedRun(){let t=this.selectedRun();t&&(this.tabs.forEach((n,r)=>{n.hidden=!(re[r]?.available?.(t)??!0)}),(this.dashboard.available?.(t)??!0)||(this.dashboard=Dt(null),this.showActiveTab()),this.runSelect.value=t.directory,this.jobLabel.hidden=t.jobs.length<2,this.jobSelect.replaceChildren(...t.jobs.map((n,r)=>s("option",{value:n.run},`${n.id}${r===0?" (newest)":""} · ${n.ranks.length} rank(s)`))),this.jobSelect.value=t.name,this.runStatus.textContent=t.status,this.runStatus.className=`badge status-${t.status}`,this.rank!==null&&!t.ranks.includes(this.rank)&&(this.rank=null),this.fillRankSelect(t.ranks.map(n=>({rank:n}))),this.saveSelection())}fillRankSelect(t){this.rankSelect.replaceChildren(s("option",{value:Ht},"All ranks"),...t.map(n=>s("option",{value:String(n.rank)},n.host?`rank ${n.rank} · ${n.host}`:`rank ${n.rank}`))),this.rankSelect.value=this.rank===null?Ht:String(this.rank)}saveSelection(){let t=this.dashboard===re[0];E({run:this.run,rank:this.rank===null?null:String(this.rank),dashboard:t?null:this.dashboard.id})}async loadDashboard(t,n,r={}){let a=this.run;if(a!==null){this.content.setAttribute("aria-busy","true");try{let o=await this.dashboard.show({run:a,rank:this.rank,signal:t,refresh:n,onProgress:i=>this.content.replaceChildren(Ti(i)),onRanks:i=>this.fillRankSelect(i),navigate:(i,l)=>this.open(Dt(i),l),params:r});t.aborted||this.content.replaceChildren(o)}catch(o){jr(o)||this.content.replaceChildren(Vr(`Could not load run “${a}”`,o))}finally{t.aborted||this.content.removeAttribute("aria-busy")}}}};var Ri="experimental.DataReloaded";function $i(e){if(typeof e!="string")return null;try{let t=JSON.parse(e);return typeof t=="object"&&t!==null&&"type"in t&&"id"in t?t:null}catch{return null}}function Yr(e){if(window.parent===window)return;let t=new MessageChannel;t.port1.onmessage=n=>{let r=$i(n.data);if(r===null||r.isReply)return;let a={type:r.type,id:r.id,payload:null,error:null,isReply:!0};t.port1.postMessage(JSON.stringify(a)),r.type===Ri&&e()};try{window.parent.postMessage("experimental.bootstrap","*",[t.port2])}catch{}}var Jr=`/* Colours follow TensorBoard: white / #303030 backgrounds, orange accent. theme.ts sets data-theme. */
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
/* Names stay on one line, cut with an ellipsis: a row is one line high however long the name
   (the full name is the cell's tooltip, and in the row's details where the tab has them). */
.data-table td[data-column="name"],
.data-table td[data-column="operator"] {
  max-width: 48ch;
  overflow: hidden;
  text-overflow: ellipsis;
}
/* With Nsight Compute's columns the table scrolls sideways; kernel names keep a readable width. */
.data-table[data-testid="kernel-table"] td[data-column="name"] {
  min-width: 32ch;
}
.data-table tr.clickable {
  cursor: pointer;
}
/* A long table's pager: which rows of how many, and the buttons to page through them. */
.data-table caption.pager {
  caption-side: top;
  text-align: left;
  padding: 4px 0;
  white-space: nowrap;
}
.pager .pager-range {
  margin-right: 8px;
  color: var(--fg-muted);
}
.pager button {
  margin-right: 4px;
}
/* A full name shown in a details panel: wraps anywhere, scrolls past a few lines. */
.full-name {
  display: block;
  max-height: 12em;
  overflow: auto;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  font-size: 12px;
}
/* Python functions: name, then file and line, on one line; the full text is the tooltip. */
.data-table td[data-column="function"] {
  max-width: 72ch;
  overflow: hidden;
  text-overflow: ellipsis;
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

`;var Zr=`/* Compare tab */
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

`;var Qr=`/* Memory and GPU tabs */
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
.stack-frames .stack-more {
  list-style: none;
  font-family: inherit;
}

`;var ea=`/* Modules tab: tree table, icicle, per-step detail */
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

`;var ta=`/* Findings */
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
  grid-template-columns: minmax(120px, 42ch) 1fr 80px;
}
.breakdown-bar,
.top-bar-track {
  display: flex;
  height: 14px;
  background: var(--grid);
  border-radius: 2px;
  overflow: hidden;
}
.breakdown-track {
  display: block;
  height: 16px;
}
.breakdown-bar {
  height: 16px;
}
.breakdown-part {
  height: 100%;
  overflow: hidden;
  white-space: nowrap;
  text-align: center;
  font-size: 10px;
  line-height: 16px;
  color: #fff;
  text-shadow: 0 0 2px rgba(0, 0, 0, 0.8);
}
.category-idle {
  color: var(--fg, inherit);
  text-shadow: none;
}
.breakdown-ticks {
  position: relative;
  height: 16px;
  border-top: 1px solid var(--grid);
  font-size: 11px;
}
.breakdown-tick {
  position: absolute;
  top: 1px;
  transform: translateX(-50%);
  white-space: nowrap;
}
.breakdown-tick:first-child {
  transform: none;
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

`;var na=`/* Many-rank Overview: rank × step heatmap */
.heatmap-metric {
  display: inline-block;
  margin-bottom: 8px;
}
.heatmap-stage {
  position: relative;
  overflow-x: auto;
}
.heatmap-canvas {
  display: block;
  cursor: pointer;
}
.heatmap-legend {
  display: flex;
  align-items: center;
  gap: 6px;
  margin: 6px 0;
  font-variant-numeric: tabular-nums;
}
.heatmap-gradient {
  display: inline-block;
  width: 160px;
  height: 10px;
  border: 1px solid var(--border);
}
.heatmap-missing {
  display: inline-block;
  width: 10px;
  height: 10px;
  margin-left: 12px;
  background: var(--grid);
  border: 1px solid var(--border);
}
.heatmap-outliers ul {
  margin: 4px 0;
  padding-left: 18px;
}
.picked-ranks {
  display: flex;
  flex-wrap: wrap;
  gap: 4px;
  margin-bottom: 6px;
}
.rank-picker input[aria-invalid="true"] {
  border-color: var(--error-border);
}
`;var ra=`/* Timeline: fills the iframe below the toolbar; the details panel takes what the lanes leave. */
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

.window-note {
  padding: 2px 8px;
  font-size: 12px;
  background: var(--warning-bg);
  border-left: 3px solid var(--warning-border);
}
.step-input {
  width: 5em;
  margin-left: 4px;
}
`;var aa=[Jr,ra,ta,ea,Qr,Zr,na].join("");function Im(){document.head.append(s("style",{},aa)),hn();let e=new it(document.body);Yr(()=>{e.reload()}),e.reload()}export{Im as render};

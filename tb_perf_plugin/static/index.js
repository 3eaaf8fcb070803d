var F=class extends Error{constructor(n,r){super(r);this.code=n}code};function Re(e){return typeof e=="object"&&e!==null}function Fr(e){return Re(e)&&Re(e.progress)?e.progress:null}function Wr(e,t){let n=Re(t)?t.error:void 0;return Re(n)&&typeof n.message=="string"?new F(String(n.code??"error"),n.message):new F("http_error",`The server answered HTTP ${e}.`)}function Br(e,t){return new Promise((n,r)=>{let a=setTimeout(n,e);t.addEventListener("abort",()=>{clearTimeout(a),r(t.reason)},{once:!0})})}async function zr(e,t){try{return await fetch(e,{signal:t,headers:{Accept:"application/json"}})}catch(n){throw t.aborted?n:new F("unreachable","The TensorBoard server did not answer. Is it still running?")}}async function S(e,t,n){for(;;){let r=await zr(e,t),a=await r.json().catch(()=>null),o=r.status===202?Fr(a):null;if(o){n?.(o),await Br(500,t);continue}if(!r.ok)throw Wr(r.status,a);if(a===null)throw new F("bad_response","The server sent a response that is not JSON.");return a}}function L(e,t={}){let n=new URLSearchParams({run:e});for(let[r,a]of Object.entries(t))a!==null&&n.set(r,String(a));return n.toString()}function $e(e){return S("./runs",e)}function Tt(e,t){for(let[n,r]of Object.entries(t))r===void 0||r===!1||e.setAttribute(n,r===!0?"":String(r))}function s(e,t={},...n){let r=document.createElement(e);Tt(r,t);for(let a of n)a!=null&&a!==!1&&r.append(a);return r}var Ur="http://www.w3.org/2000/svg";function M(e,t={},...n){let r=document.createElementNS(Ur,e);Tt(r,t);for(let a of n)a!=null&&a!==!1&&r.append(a);return r}var Gr=new Intl.NumberFormat("en-US");function he(e){let t=Math.abs(e),n=t>=100?0:t>=10?1:2;return new Intl.NumberFormat("en-US",{minimumFractionDigits:n,maximumFractionDigits:n}).format(e)}function f(e){if(e==null||!Number.isFinite(e))return"—";let t=Math.abs(e);return t>=1e9?`${he(e/1e9)} s`:t>=1e6?`${he(e/1e6)} ms`:t>=1e3?`${he(e/1e3)} µs`:`${Math.round(e)} ns`}var Mt=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]];function Ee(e){let t=Math.max(0,...e.map(Math.abs)),[n,r]=Mt.find(([i])=>t>=i)??[1,"ns"],a=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/n:1,o=Math.min(3,Math.max(0,-Math.floor(Math.log10(a))));return i=>`${(i/n).toFixed(o)} ${r}`}function b(e){return e==null?"—":Gr.format(e)}function X(e){return e==null||!Number.isFinite(e)?"—":e>0&&e<.05?"<0.1 %":`${e.toFixed(1)} %`}function J(e){let t=["B","KB","MB","GB","TB"],n=e,r=0;for(;n>=1e3&&r<t.length-1;)n/=1e3,r+=1;return r===0?`${e} B`:`${he(n)} ${t[r]}`}function te(e){let[t,n]=Mt.find(([a])=>Math.abs(e)>=a)??[1,"ns"],r=Math.round(Math.log10(t));return`${(e/t).toFixed(r)} ${n}`}var Rt=[[1024**4,"TiB"],[1024**3,"GiB"],[1024**2,"MiB"],[1024,"KiB"],[1,"B"]];function _(e){if(e==null||!Number.isFinite(e))return"—";let[t,n]=Rt.find(([r])=>Math.abs(e)>=r)??[1,"B"];return t===1?`${Math.round(e)} B`:`${he(e/t)} ${n}`}function se(e){let t=Math.max(0,...e.map(Math.abs)),[n,r]=Rt.find(([i])=>t>=i)??[1,"B"],a=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/n:1,o=Math.min(3,Math.max(0,-Math.floor(Math.log10(a))));return i=>`${(i/n).toFixed(o)} ${r}`}function oe(e){return t=>{let n=t.length>1?Math.abs((t[1]??0)-(t[0]??0)):1,r=Math.min(3,Math.max(0,-Math.floor(Math.log10(n||1))));return a=>`${a.toFixed(r)}${e}`}}function E(){return new URLSearchParams(location.hash.slice(1))}function R(e){let t=E();for(let[r,a]of Object.entries(e))a===null?t.delete(r):t.set(r,a);let n=new URL(location.href);n.hash=t.toString(),history.replaceState(history.state,"",n.href)}function $t(e,t,n,r){let a=new URLSearchParams({baseline:e,candidate:t});return S(`./compare?${a}`,n,r)}function fe(e){return e===null||!Number.isFinite(e)?"—":e===0?"±0":`${e>0?"+":"−"}${f(Math.abs(e))}`}function Et(e){if(!(e===null||e===0))return e>0?"delta-worse":"delta-better"}var Le=720,Ae=22,Qe=150,Xr=90,Kr={breakdown:"the traced steps' breakdown categories",spans:"MyTimer's top-level spans"};function Lt(e,t){let n=t+Ae/2;return{class:"chart-label",x:e,y:n,"text-anchor":"end","dominant-baseline":"middle"}}function et(e,t){return e.reduce((n,r)=>n+r[t],0)}function At(e,t){if(e.length===0)return s("p",{class:"muted","data-testid":"no-category-deltas"},"No categories to compare: the runs need traced steps, or MyTimer spans, of the same kind.");let n=[...e].sort((c,d)=>Math.abs(d.delta_ns)-Math.abs(c.delta_ns)),r=Math.max(1,...n.map(c=>Math.abs(c.delta_ns))),a=(Le-Qe-Xr)/2,o=Qe+a,i=n.length*Ae+4,l=M("svg",{class:"delta-chart",width:Le,height:i,viewBox:`0 0 ${Le} ${i}`,role:"img","aria-label":"Per-step time by category: candidate minus baseline"});return n.forEach((c,d)=>{let u=d*Ae+2,m=Math.abs(c.delta_ns)/r*a,p=c.delta_ns<0?o-m:o,h=c.delta_ns>0?"slower":c.delta_ns<0?"faster":"same";l.append(M("g",{"data-testid":"category-delta","data-category":c.category,"data-value":c.delta_ns},M("title",{},`${c.category}: ${f(c.baseline_ns)} → ${f(c.candidate_ns)} per step`),M("text",Lt(Qe-8,u),c.category),M("rect",{class:`delta-bar delta-${h}`,x:p,y:u+3,width:Math.max(1,m),height:Ae-6}),M("text",Lt(Le-4,u),fe(c.delta_ns))))}),l.append(M("line",{class:"chart-axis",x1:o,x2:o,y1:0,y2:i})),s("div",{class:"table-scroll","data-testid":"category-deltas"},s("p",{class:"muted"},`Mean time per step by ${Kr[t??""]??"category"}, candidate minus baseline: right of the line is slower, left is faster.`),l,s("p",{class:"muted","data-testid":"category-totals"},`All categories: ${f(et(n,"baseline_ns"))} → ${f(et(n,"candidate_ns"))} per step (${fe(et(n,"delta_ns"))}).`))}function W(e,t,n,r){return{key:e,label:t,numeric:!0,value:n,format:a=>f(n(a)),...r===void 0?{}:{title:r}}}var qr={asc:"ascending",desc:"descending"},Vr={asc:" ▲",desc:" ▼"},jr={asc:"desc",desc:"asc"};function Yr(e,t){return typeof e=="number"&&typeof t=="number"?e-t:String(e).localeCompare(String(t))}function Jr(e,t,n){let r=n==="asc"?1:-1;return[...e].sort((a,o)=>{let i=t.value(a),l=t.value(o);return i===null||l===null?i===l?0:i===null?1:-1:r*Yr(i,l)})}function Zr(e){return e.numeric?"desc":"asc"}function P(e){let{columns:t,testId:n}=e,r=e.sort,a=s("table",{class:"data-table","data-testid":n}),o=s("tr"),i=s("tbody");a.append(s("thead",{},o),i);let l=()=>{o.replaceChildren(...t.map(d=>{let u=r?.key===d.key?r.direction:void 0,m=s("th",{class:d.numeric?"numeric":void 0,title:d.title,"aria-sort":u&&qr[u],"data-column":d.key});if(!r)return m.append(d.label),m;let p=u?Vr[u]:"",h=s("button",{type:"button",class:"sort-button"},d.label+p);return h.addEventListener("click",()=>{let g=u===void 0?Zr(d):jr[u];r={key:d.key,direction:g},e.onSortChange?.(r),l(),c()}),m.append(h),m}))},c=()=>{let d=r&&t.find(m=>m.key===r?.key),u=r&&d?Jr(e.rows,d,r.direction):e.rows;i.replaceChildren(...u.map(m=>s("tr",{"data-testid":e.rowTestId,"data-name":e.rowName(m),class:e.rowClass?.(m)},...t.map(p=>{let h=p.value(m);return s("td",{class:p.numeric?"numeric":void 0,"data-column":p.key,"data-value":h===null?void 0:String(h)},p.render?p.render(m):p.format?p.format(m):String(h??"—"))}))))};return l(),c(),a}var Qr={baseline_ns:"new",candidate_ns:"vanished"};function Pt(e){return e.baseline_ns?e.delta_ns/e.baseline_ns:null}function ea(e){let t=(a,o)=>({key:a,label:o,numeric:!0,value:i=>i[a],format:i=>i.status===Qr[a]?"—":f(i[a])}),n=e.calls,r=n?[{key:"baseline_calls",label:"baseline calls",numeric:!0,value:a=>n(a)[0],format:a=>b(n(a)[0])},{key:"candidate_calls",label:"candidate calls",numeric:!0,value:a=>n(a)[1],format:a=>b(n(a)[1])}]:[];return[{key:"name",label:e.noun,numeric:!1,value:e.name},...e.extra??[],{key:"status",label:"status",numeric:!1,value:a=>a.status},t("baseline_ns","baseline"),t("candidate_ns","candidate"),{key:"delta_ns",label:"Δ",title:"Candidate minus baseline (+ is slower)",numeric:!0,value:a=>a.delta_ns,render:a=>s("span",{class:Et(a.delta_ns)},fe(a.delta_ns))},{key:"delta_pct",label:"Δ %",title:"The delta as a share of the baseline's time",numeric:!0,value:Pt,format:a=>{let o=Pt(a);return o===null?"—":`${o>0?"+":""}${(o*100).toFixed(1)} %`}},...r]}function ta(e,t){let n=E(),r=n.get(`${e}sort`),a=n.get(`${e}dir`);return t.some(o=>o.key===r)&&(a==="asc"||a==="desc")?{key:r,direction:a}:{key:"delta_ns",direction:"desc"}}function Pe(e){if(e.rows.length===0)return s("p",{class:"muted"},`No ${e.noun}s in either run.`);let t=ea(e),n=s("input",{type:"search",class:"search-input",placeholder:`Filter ${e.noun}s`,"aria-label":`Filter ${e.noun}s`,"data-testid":`${e.prefix}-delta-filter`}),r=s("p",{class:"muted"}),a=s("div",{class:"table-scroll"}),o=()=>{let i=n.value.trim().toLowerCase(),l=e.rows.filter(u=>i===""||e.name(u).toLowerCase().includes(i)),c=e.total>e.rows.length?`the ${b(e.rows.length)} largest changes of ${b(e.total)} ${e.noun}s`:`${b(e.rows.length)} ${e.noun}s`,d=l.length===e.rows.length?"":`${b(l.length)} match the filter, of `;r.textContent=`${e.per}; ${d}${c}.`,a.replaceChildren(P({columns:t,rows:l,testId:`${e.prefix}-delta-table`,rowTestId:`${e.prefix}-delta-row`,rowName:e.name,sort:ta(e.prefix,t),onSortChange:u=>R({[`${e.prefix}sort`]:u.key,[`${e.prefix}dir`]:u.direction})}))};return n.addEventListener("input",o),o(),s("div",{},s("div",{class:"controls"},n),r,a)}var tt=e=>`${e.toFixed(1)} %`,Ct={peak_bytes:{label:"peak allocated",format:_},reserved_bytes:{label:"peak reserved",format:_},slope_bytes_per_step:{label:"growth per step",format:e=>`${_(e)}/step`},trace_utilization:{label:"GPU busy in the traces",format:tt},tracker_utilization:{label:"GPU utilization (NVML)",format:tt},spread:{label:"straggler spread (slowest − fastest rank, of the median)",format:e=>tt(e*100)}};function na(e,t){return t===null?"—":t===0?"±0":`${t>0?"+":"−"}${e(Math.abs(t))}`}function nt(e,t,n,r){let a=o=>o===null?"—":n(o);return s("tr",{"data-name":e},s("td",{},t),s("td",{class:"numeric"},a(r.baseline)),s("td",{class:"numeric"},a(r.candidate)),s("td",{class:"numeric","data-column":"delta"},na(n,r.delta)))}function Ht(e,t){return s("div",{class:"table-scroll"},s("table",{class:"data-table","data-testid":e},s("thead",{},s("tr",{},s("th",{},"metric"),s("th",{class:"numeric"},"baseline"),s("th",{class:"numeric"},"candidate"),s("th",{class:"numeric"},"Δ"))),s("tbody",{},...t)))}function rt(e,t,n){let r=Object.entries(e).filter(([,a])=>a.baseline!==null||a.candidate!==null).map(([a,o])=>{let i=Ct[a]??{label:a.replaceAll("_"," "),format:String};return nt(a,i.label,i.format,o)});return r.length===0?s("p",{class:"muted","data-testid":`${t}-none`},n):Ht(`${t}-table`,r)}function Nt(e){let t=Ct.spread,n=e.ranks.map(i=>nt(`rank ${i.rank}`,`rank ${i.rank} median step`,f,i));if(t&&(e.spread.baseline!==null||e.spread.candidate!==null)&&n.unshift(nt("spread",t.label,t.format,e.spread)),n.length===0)return s("p",{class:"muted","data-testid":"balance-none"},"Both runs have one rank (or no matched ranks): nothing to balance.");let{baseline:r,candidate:a}=e.slowest_rank,o=r===null&&a===null?null:s("p",{class:"muted"},`Slowest rank: ${r??"—"} in the baseline, ${a??"—"} in the candidate.`);return s("div",{},Ht("balance-table",n),o)}function V(e,t,...n){return s("section",{class:"panel","data-testid":t},s("h2",{},e),...n)}function Ce(e,t){return s("section",{class:"notice","data-testid":e,role:"status"},t)}function ra(e,t,n){let r=document.querySelector('[data-testid="run-select"]');r&&r.value!==e&&(r.value=e,r.dispatchEvent(new Event("change"))),n("timeline",{step:t})}function aa(e){let t=e.verdict.replace(" ","-"),n=i=>{let l=e[i];return s("tr",{"data-testid":`step-stats-${i}`},s("th",{},i),s("td",{class:"numeric"},b(l.steps)),s("td",{class:"numeric"},f(l.median_ns)),s("td",{class:"numeric"},f(l.p95_ns)))},[r,a]=e.ci,o=e.ratio===null||r===null||a===null?"One of the runs has fewer than two steps: no ratio to test.":`median(candidate) / median(baseline) = ${e.ratio.toFixed(3)}, ${Math.round((1-e.alpha)*100)} % bootstrap interval [${r.toFixed(3)}, ${a.toFixed(3)}].`;return s("section",{class:"panel"},s("p",{class:`compare-headline verdict-${t}`,"data-testid":"compare-headline","data-verdict":e.verdict},s("span",{class:`verdict-badge verdict-${t}`},e.verdict)," ",e.headline),s("p",{class:"muted","data-testid":"compare-ratio"},o),s("table",{class:"data-table"},s("thead",{},s("tr",{},s("th",{},"run"),s("th",{class:"numeric"},"steps"),s("th",{class:"numeric"},"median step"),s("th",{class:"numeric"},"p95 step"))),s("tbody",{},n("baseline"),n("candidate"))))}function sa(e,t){let n=(a,o)=>{if(a===null)return null;let{run:i,step:l}=a,c=s("button",{type:"button",class:"link-button","data-testid":`timeline-link-${o}`,"data-run":i,"data-step":l},`${o} ${i}, step ${l}`);return c.addEventListener("click",()=>ra(i,l,t)),s("li",{},c)},r=[n(e.links.baseline_step,"baseline"),n(e.links.candidate_step,"candidate")];return r.every(a=>a===null)?null:V("Open in the Timeline","timeline-links",s("p",{class:"muted"},"A typical step of each run (nearest its median step time):"),s("ul",{class:"top-list"},...r))}function at(e,t,n){return e.length===0?s("p",{class:"muted","data-testid":t},n):s("ul",{class:"findings","data-testid":t},...e.map(r=>s("li",{class:`finding severity-${r.severity}`,"data-testid":"compare-finding","data-kind":r.kind},s("div",{class:"finding-head"},s("span",{class:`severity-badge severity-${r.severity}`},r.severity),s("strong",{class:"finding-title"},r.title)))))}function oa(e){let{appeared:t,disappeared:n,kept:r}=e.findings;return V("Findings","compare-findings",s("h3",{},`Appeared in the candidate (${t.length})`),at(t,"findings-appeared","None: the candidate has no finding the baseline lacks."),s("h3",{},`Gone from the candidate (${n.length})`),at(n,"findings-disappeared","None: every finding of the baseline is still there."),s("h3",{},`In both runs (${r.length})`),at(r,"findings-kept","None."))}function Dt({baseline:e,candidate:t}){return`Time per traced step and rank (the traces cover ${b(e)} and ${b(t)} such windows; a trace without steps counts whole)`}function ia(e,t){return s("div",{"data-testid":"compare-result"},e.ranks.note?Ce("compare-ranks-note",e.ranks.note):null,aa(e.step_time),sa(e,t),V("Where the step time changed","compare-categories",At(e.categories,e.category_source)),oa(e),V("Operators","compare-operators",Pe({prefix:"co",noun:"operator",per:Dt(e.per_step),rows:e.operators,total:e.operators_total,name:n=>n.name,calls:n=>[n.baseline_calls,n.candidate_calls]})),V("Kernels","compare-kernels",Pe({prefix:"ck",noun:"kernel",per:Dt(e.per_step),rows:e.kernels,total:e.kernels_total,name:n=>n.name,calls:n=>[n.baseline_calls,n.candidate_calls]})),V("Modules","compare-modules",Pe({prefix:"cm",noun:"module",per:"Time per step and rank",rows:e.modules,total:e.modules_total,name:n=>n.path||"(model)",extra:[{key:"phase",label:"phase",numeric:!1,value:n=>n.phase}]})),V("Memory","compare-memory",rt(e.memory,"memory","Neither run sampled memory (MemorySampler).")),V("GPU","compare-gpu",rt(e.gpu,"gpu","Neither run has GPU kernels in traces or GpuTracker samples.")),V("Rank balance","compare-balance",Nt(e.balance)))}function It(e,t,n){let r=t.includes(n)?t:[...t,n];e.replaceChildren(...r.map(a=>t.includes(a)?s("option",{value:a},a):s("option",{value:a,disabled:!0},`${a} (missing)`))),e.value=n}function la(e,t,n){if(e.length<2){let r=e.length===1?"only one":"none";return Ce("compare-problem",`Compare needs two runs; this logdir holds ${r}.`)}for(let[r,a]of[["baseline",t],["candidate",n]])if(!e.includes(a))return Ce("compare-problem",`The ${r} run “${a}” is not in this logdir; pick another.`);return t===n?Ce("compare-problem",`Baseline and candidate are the same run (“${t}”): pick two different runs.`):null}var Ot={id:"compare",label:"Compare",usesRankSelect:!1,async show({run:e,signal:t,onProgress:n,navigate:r}){let a=(await $e(t)).map(y=>y.name),o=E(),i=o.get("cand")??e,l=o.get("base")??a.find(y=>y!==i)??i,c=s("select",{"data-testid":"compare-baseline","aria-label":"Baseline run"}),d=s("select",{"data-testid":"compare-candidate","aria-label":"Candidate run"}),u=s("button",{type:"button",class:"compare-swap","data-testid":"compare-swap"},"⇄ swap"),m=s("div",{"data-testid":"compare-body"}),p=new AbortController,h=async y=>{p.abort(),p=new AbortController,It(c,a,l),It(d,a,i);let v=AbortSignal.any([t,p.signal]);R({base:l,cand:i});let w=la(a,l,i);if(w){m.replaceChildren(w);return}m.setAttribute("aria-busy","true");try{let x=await $t(l,i,v,y);v.aborted||m.replaceChildren(ia(x,r))}catch(x){if(v.aborted)return;let H=x instanceof F?`${x.message} (${x.code})`:String(x);m.replaceChildren(s("div",{class:"error","data-testid":"error",role:"alert"},s("strong",{},"Could not compare the runs"),s("p",{},H)))}finally{v.aborted||m.removeAttribute("aria-busy")}},g=y=>m.replaceChildren(s("p",{class:"muted"},`Reading run files… ${Math.round(y.fraction*100)} %`));return c.addEventListener("change",()=>{l=c.value,h(g)}),d.addEventListener("change",()=>{i=d.value,h(g)}),u.addEventListener("click",()=>{[l,i]=[i,l],h(g)}),await h(n),s("div",{class:"compare","data-testid":"compare"},s("div",{class:"compare-pickers"},s("label",{},"Baseline ",c),u,s("label",{},"Candidate ",d)),m)}};var N={top:10,right:16,bottom:38,left:68},ca=90,da=40;function Ft(e,t,n,r){let o=(t-e||Math.abs(t)||1)/Math.max(1,n),i=10**Math.floor(Math.log10(o)),l=[1,2,5,10].map(m=>m*i).find(m=>m>=o)??10*i;r&&(l=Math.max(1,Math.round(l)));let c=Math.floor(e/l)*l,d=Math.max(Math.ceil(t/l)*l,c+l),u=[];for(let m=0;c+m*l<=d+l/2;m+=1)u.push(Number((c+m*l).toPrecision(12)));return{min:c,max:d,ticks:u}}function zt(e,t){let n=0,r=e.length;for(;n<r;){let a=n+r>>1;(e[a]??1/0)<t?n=a+1:r=a}return n}function ua(e,t){let n=null;for(let{x:r}of e){let a=zt(r,t);for(let o of[r[a-1],r[a]])o!==void 0&&(n===null||Math.abs(o-t)<Math.abs(n-t))&&(n=o)}return n}function Wt(e){let t=1/0,n=-1/0;for(let r of e)r<t&&(t=r),r>n&&(n=r);return[t,n]}function*Bt(e,t){for(let n of e)yield*n[t]}function ma(e,t,n){let{series:r,height:a}=e,o=t-N.left-N.right,i=a-N.top-N.bottom,[l,c]=Wt(Bt(r,"x")),[,d]=Wt(Bt(r,"y")),u=Ft(l,c,o/ca,!0),m=Ft(0,d,i/da,!1),p=T=>N.left+(T-u.min)/(u.max-u.min)*o,h=T=>N.top+(1-(T-m.min)/(m.max-m.min))*i,g=N.top+i,y=M("svg",{width:t,height:a,class:"chart-svg",role:"img"}),v=e.yTickFormat(m.ticks);for(let T of m.ticks){let $=h(T).toFixed(1);y.append(M("line",{class:"chart-grid",x1:N.left,x2:t-N.right,y1:$,y2:$}),M("text",{class:"chart-tick",x:N.left-6,y:$,"text-anchor":"end","dominant-baseline":"middle"},v(T)))}for(let T of u.ticks)y.append(M("text",{class:"chart-tick",x:p(T).toFixed(1),y:g+16,"text-anchor":"middle"},e.formatX(T)));if(y.append(M("line",{class:"chart-axis",x1:N.left,x2:t-N.right,y1:g,y2:g}),M("text",{class:"chart-label",x:N.left+o/2,y:a-4,"text-anchor":"middle"},e.xLabel)),e.markers?.length){let T=M("g",{class:"chart-markers","data-testid":`${e.testId}-markers`});for(let $ of e.markers){if($<u.min||$>u.max)continue;let z=p($).toFixed(1);T.append(M("line",{class:"chart-mark",x1:z,x2:z,y1:N.top,y2:g}))}y.append(T)}for(let T of r){let $=T.x.map((z,D)=>`${p(z).toFixed(1)},${h(T.y[D]??0).toFixed(1)}`);y.append($.length===1?M("circle",{cx:p(T.x[0]??0),cy:h(T.y[0]??0),r:3,fill:T.color,"data-series":T.label}):M("polyline",{class:T.dashed?"chart-line chart-dashed":"chart-line",points:$.join(" "),stroke:T.color,"data-series":T.label}))}let w=M("line",{class:"chart-guide",y1:N.top,y2:g,visibility:"hidden"}),x=M("g"),H=M("rect",{x:N.left,y:N.top,width:o,height:i,class:"chart-hover"});y.append(w,x,H);let K=()=>{w.setAttribute("visibility","hidden"),x.replaceChildren(),n.hidden=!0};return H.addEventListener("pointerleave",K),H.addEventListener("pointermove",T=>{let $=y.getBoundingClientRect().left,z=u.min+(T.clientX-$-N.left)/o*(u.max-u.min),D=ua(r,z);if(D===null)return K();let Te=[];x.replaceChildren();for(let q of r){let ae=zt(q.x,D),k=q.y[ae];q.x[ae]!==D||k===void 0||(x.append(M("circle",{cx:p(D),cy:h(k),r:3.5,fill:q.color,class:"chart-marker"})),Te.push(s("div",{class:"tooltip-row"},s("span",{class:"swatch",style:`background:${q.color}`}),`${q.label}: ${e.formatY(k)}`)))}w.setAttribute("x1",p(D).toFixed(1)),w.setAttribute("x2",p(D).toFixed(1)),w.setAttribute("visibility","visible"),n.replaceChildren(s("div",{class:"tooltip-title"},`${e.xLabel} ${e.formatX(D)}`),...Te),n.hidden=!1;let re=12,Me=p(D)+re+n.offsetWidth>t;n.style.left=`${Me?p(D)-re-n.offsetWidth:p(D)+re}px`,n.style.top=`${N.top}px`}),y}function U(e){let t=s("div",{class:"chart-tooltip",role:"tooltip","data-testid":`${e.testId}-tooltip`});t.hidden=!0;let n=s("div",{class:"chart-plot",style:`min-height:${e.height}px`},t),r=s("ul",{class:"chart-legend"},...e.series.map(o=>s("li",{},s("span",{class:"swatch",style:`background:${o.color}`}),o.label)),e.markers?.length&&e.markerLabel?s("li",{},s("span",{class:"swatch chart-mark-swatch"}),e.markerLabel):null),a=0;return new ResizeObserver(()=>{let o=n.clientWidth;o===0||o===a||(a=o,n.replaceChildren(ma(e,o,t),t))}).observe(n),s("figure",{class:"chart","data-testid":e.testId},n,r)}var le=16,Yt=[["step_time","Step time"],["collective_wait","Collective wait"],["memory","Memory"]],ie=56,pa=18,ha=640,fa=14,Ut=8,ge=["#440154","#3b528b","#21918c","#5ec962","#fde725"];function Jt(e,t,n,r){return S(`./rank_heatmap?${L(e,{metric:t})}`,n,r)}var Gt=5,Xt=3;function ce(e,t,n,r=new Set){if(e.length<=le)return{charted:[...e],note:null};let a=e.filter(d=>t(d)!==null).sort((d,u)=>(t(d)??0)-(t(u)??0)),o=new Set([...a.slice(-Gt),...a.slice(0,Xt)].map(d=>d.rank));for(let d of r)o.add(d);let i=e.filter(d=>o.has(d.rank)),l=r.size>0?" and those a finding names":"",c=s("p",{class:"muted","data-testid":"charted-ranks"},`Charted: ${i.length} of ${e.length} ranks, the ${Gt} highest and ${Xt} lowest by ${n}${l}. Pick a rank in the toolbar to chart another.`);return{charted:i,note:c}}var Kt=4;async function Zt(e,t,n){let r=["step_time","collective_wait"],o=(await Promise.allSettled(r.map(l=>Jt(e,l,n)))).flatMap(l=>l.status==="fulfilled"?l.value.outlier_ranks:[]).sort((l,c)=>Math.abs(c.z)-Math.abs(l.z)).map(l=>l.rank),i=new Set;for(let l of o)i.size<Kt-1&&t.includes(l)&&i.add(l);for(let l of t){if(i.size>=Kt)break;i.add(l)}return[...i]}function qt(e){return Yt.some(([t])=>t===e)}function Vt(e){let t=Number.parseInt(e.slice(1),16);return[t>>16&255,t>>8&255,t&255]}function ba(e){let t=Math.min(Math.max(e,0),1)*(ge.length-1),n=Math.min(Math.floor(t),ge.length-2),r=Vt(ge[n]??"#000000"),a=Vt(ge[n+1]??"#000000");return`rgb(${r.map((i,l)=>Math.round(i+(t-n)*((a[l]??0)-i))).join(",")})`}function be(e,t){return e.unit==="bytes"?_(t):f(t)}function ga(e,t){let n=e.first_steps[t],r=e.last_steps[t];return n===r?`step ${n}`:`steps ${n}–${r}`}function jt(e){let t=e.slice(0,Ut).join(", ");return e.length>Ut?`${t}, …`:t}var He=class{constructor(t,n,r){this.run=t;this.navigate=n;this.onProgress=r;let a=E().get("hm");this.metric=qt(a)?a:"step_time";let o=s("select",{"data-testid":"heatmap-metric","aria-label":"Heatmap metric"},...Yt.map(([i,l])=>s("option",{value:i,selected:i===this.metric},l)));o.addEventListener("change",()=>{qt(o.value)&&(this.metric=o.value,R({hm:this.metric}),this.load())}),this.openButton.addEventListener("click",()=>this.navigate("timeline",{ranks:[...this.picked].sort((i,l)=>i-l).join(",")})),this.canvas.addEventListener("mousemove",i=>this.hover(i)),this.canvas.addEventListener("mouseleave",()=>this.tooltip.hidden=!0),this.canvas.addEventListener("click",i=>{let l=this.cellAt(i);l&&this.toggle(l.rank)}),this.element=s("section",{class:"panel heatmap","data-testid":"heatmap-panel"},s("h2",{},"Ranks × steps"),s("p",{class:"muted"},"Too many ranks for one row each: one line of cells per rank. Click cells or outlier ranks to pick ranks, then open them in the Timeline."),s("label",{class:"heatmap-metric"},"Metric ",o),this.body,s("div",{class:"picked"},s("h3",{},"Picked ranks"),this.pickedList,this.openButton)),this.renderPicked(),new ResizeObserver(()=>{this.body.clientWidth!==this.drawnWidth&&this.draw()}).observe(this.body)}run;navigate;onProgress;element;metric;answer=null;picked=new Set;request=new AbortController;canvas=s("canvas",{class:"heatmap-canvas","data-testid":"rank-heatmap"});tooltip=s("div",{class:"chart-tooltip",hidden:!0,"data-testid":"heatmap-tooltip"});body=s("div",{class:"heatmap-body"});pickedList=s("div",{class:"picked-ranks","data-testid":"picked-ranks"});openButton=s("button",{type:"button","data-testid":"open-picked-timeline",disabled:!0},"Open picked ranks in the Timeline");layout={cell:1,row:1};drawnWidth=0;async load(){this.request.abort(),this.request=new AbortController;let t=this.request.signal;this.body.replaceChildren(s("p",{class:"muted"},"Loading…"));try{let n=await Jt(this.run,this.metric,t,this.onProgress);if(t.aborted)return;this.answer=n,this.renderBody()}catch(n){if(t.aborted)return;this.body.replaceChildren(s("p",{class:"error",role:"alert"},String(n.message)))}}renderBody(){let t=this.answer;if(!t)return;if(t.ranks.length===0||t.min===null||t.max===null){this.body.replaceChildren(s("p",{class:"muted","data-testid":"heatmap-empty"},t.reason??"No values."));return}let n=t.bucket>1?` Each column is ${t.metric==="memory"?"the largest value":"the mean"} of ${t.bucket} consecutive steps (${t.steps_total} steps).`:"",r=s("div",{class:"heatmap-stage"},this.canvas,this.tooltip);this.body.replaceChildren(s("p",{class:"muted"},`${t.ranks.length} ranks, from ${t.source}.${n}`),r,this.legend(t),this.outliers(t)),this.draw()}legend(t){let n=t.min??0,r=t.max??0,a=`linear-gradient(to right, ${ge.join(", ")})`;return s("div",{class:"heatmap-legend","data-testid":"heatmap-legend"},s("span",{},be(t,n)),s("span",{class:"heatmap-gradient",style:`background: ${a}`}),s("span",{},be(t,r)),s("span",{class:"heatmap-missing"}),s("span",{class:"muted"},"no value"))}outliers(t){let n=t.outlier_ranks.map(a=>{let o=s("button",{type:"button",class:"link-button","data-rank":a.rank},`rank ${a.rank}`);o.addEventListener("click",()=>this.toggle(a.rank));let i=a.steps.length?`; stands out in steps ${jt(a.steps)}`:"";return s("li",{"data-testid":"outlier-rank","data-rank":a.rank},o,` median ${be(t,a.median)} vs ${be(t,a.typical)} typical (${a.direction}, z ${a.z.toFixed(1)})${i}`)}),r=t.outlier_steps.length?s("p",{"data-testid":"outlier-steps"},`Steps that stand out for every rank: ${jt(t.outlier_steps)}`):null;return s("div",{class:"heatmap-outliers"},s("h3",{},"Outlier ranks"),n.length?s("ul",{"data-testid":"outlier-ranks"},...n):s("p",{class:"muted","data-testid":"outlier-ranks-none"},"No rank stands out on this metric."),r)}toggle(t){this.picked.has(t)?this.picked.delete(t):this.picked.add(t),this.renderPicked(),this.draw()}renderPicked(){let t=[...this.picked].sort((n,r)=>n-r);this.pickedList.replaceChildren(...t.length?t.map(n=>{let r=s("button",{type:"button",class:"rank-toggle","aria-pressed":"true","data-rank":n,title:`Unpick rank ${n}`},`rank ${n} ×`);return r.addEventListener("click",()=>this.toggle(n)),r}):[s("span",{class:"muted"},"None yet.")]),this.openButton.disabled=t.length===0}draw(){let t=this.answer;if(!t||t.min===null||t.max===null)return;let n=t.ranks.length,r=t.first_steps.length;this.drawnWidth=this.body.clientWidth;let a=Math.max(320,(this.body.clientWidth||900)-8),o=Math.max(1,Math.floor((a-ie)/Math.max(r,1))),i=Math.max(1,Math.min(fa,Math.floor(ha/n)));this.layout={cell:o,row:i};let l=window.devicePixelRatio||1,c=ie+o*r,d=i*n+pa;this.canvas.width=Math.round(c*l),this.canvas.height=Math.round(d*l),this.canvas.style.width=`${c}px`,this.canvas.style.height=`${d}px`,this.canvas.dataset.rows=String(n),this.canvas.dataset.columns=String(r),this.canvas.dataset.metric=t.metric;let u=this.canvas.getContext("2d");if(!u)return;let m=getComputedStyle(document.documentElement),p=v=>m.getPropertyValue(v).trim()||"#888";u.setTransform(l,0,0,l,0,0),u.fillStyle=p("--bg"),u.fillRect(0,0,c,d);let h=Math.max(t.max-t.min,1);for(let v=0;v<n;v++){let w=t.values[v]??[];for(let x=0;x<r;x++){let H=w[x];u.fillStyle=H==null?p("--grid"):ba((H-t.min)/h),u.fillRect(ie+x*o,v*i,o,i)}}u.font="10px sans-serif",u.textBaseline="middle";let g=Math.max(1,Math.ceil(12/i));for(let v=0;v<n;v++){let w=t.ranks[v]??0;this.picked.has(w)&&(u.fillStyle=p("--accent"),u.fillRect(ie-6,v*i,4,Math.max(i,2))),v%g===0&&(u.fillStyle=p("--fg-muted"),u.fillText(String(w),2,v*i+Math.max(i,10)/2))}u.textBaseline="top",u.fillStyle=p("--fg-muted");let y=Math.max(1,Math.ceil(48/o));for(let v=0;v<r;v+=y)u.fillText(String(t.first_steps[v]),ie+v*o,n*i+4)}cellAt(t){let n=this.answer;if(!n)return null;let r=this.canvas.getBoundingClientRect(),a=t.clientX-r.left-ie,o=t.clientY-r.top,i=Math.floor(a/this.layout.cell),l=Math.floor(o/this.layout.row),c=n.ranks[l];return a<0||i>=n.first_steps.length||c===void 0?null:{rank:c,row:l,column:i}}hover(t){let n=this.answer,r=this.cellAt(t);if(!n||!r){this.tooltip.hidden=!0;return}let a=n.values[r.row]?.[r.column];this.tooltip.replaceChildren(s("div",{class:"tooltip-title"},`rank ${r.rank} · ${ga(n,r.column)}`),s("div",{},a==null?"no value":be(n,a))),this.tooltip.hidden=!1;let o=this.canvas.getBoundingClientRect();this.tooltip.style.left=`${t.clientX-o.left+12}px`,this.tooltip.style.top=`${t.clientY-o.top+12}px`}};function st(e){document.documentElement.dataset.theme=e?"dark":"light"}function va(){if(window.parent===window)return null;try{return window.parent.document.body}catch{return null}}function en(){let e=va();if(e){let n=()=>st(e.classList.contains("dark-mode"));n(),new MutationObserver(n).observe(e,{attributes:!0,attributeFilter:["class"]});return}let t=window.matchMedia("(prefers-color-scheme: dark)");st(t.matches),t.addEventListener("change",n=>st(n.matches))}var Qt=["#4e79a7","#f28e2b","#e15759","#76b7b2","#59a14f","#edc948","#b07aa1","#ff9da7","#9c755f","#bab0ac"];function B(e){return Qt[Math.max(0,e)%Qt.length]??"#888"}function tn(e,t,n,r){return S(`./gpu?${L(e,{rank:t})}`,n,r)}var ya=[{value:"util",title:"GPU utilization (share of time a kernel ran, NVML)",testId:"gpu-util-chart",format:e=>`${e.toFixed(1)} %`,ticks:oe(" %")},{value:"mem_used",title:"GPU memory used (dashed: the device's total)",testId:"gpu-memory-chart",format:_,ticks:se},{value:"power_w",title:"Power",testId:"gpu-power-chart",format:e=>`${e.toFixed(1)} W`,ticks:oe(" W")},{value:"sm_clock_mhz",title:"SM clock",testId:"gpu-clock-chart",format:e=>`${e.toFixed(0)} MHz`,ticks:oe(" MHz")},{value:"temp_c",title:"Temperature",testId:"gpu-temp-chart",format:e=>`${e.toFixed(0)} °C`,ticks:oe(" °C")}];function it(e,t){let n={x:[],y:[]};return t?.forEach((r,a)=>{let o=e[a];r!==null&&o!==void 0&&(n.x.push(o),n.y.push(r))}),n}function nn(e,t,...n){return s("section",{class:"panel","data-testid":t},s("h2",{},e),...n)}function rn(e){let t=e.find(r=>r.steps.start_ns.length>0);if(!t)return{marks:[],label:""};let n=t.steps.every>1?`every ${t.steps.every}th `:"";return{marks:t.steps.start_ns,label:`${n}step start (rank ${t.rank})`}}function wa(e,t,n){let r=`GPU ${t.index}${t.name?` ${t.name}`:""}`;return n?`rank ${e.rank} ${r}`:r}function ka(e,t){let n=t.length>1,r=[],a=0;for(let l of t)for(let c of l.devices){let{x:d,y:u}=it(c.t_ns,c[e.value]);if(d.length===0)continue;let m=wa(l,c,n),p=B(a);if(a+=1,r.push({label:m,color:p,x:d,y:u}),e.value==="mem_used"){let h=it(c.t_ns,c.mem_total);h.x.length&&r.push({...h,label:`${m} total`,color:p,dashed:!0})}}if(r.length===0)return null;let{marks:o,label:i}=rn(t);return nn(e.title,e.testId,U({series:r,height:200,xLabel:"time since the first sample",formatX:f,formatY:e.format,yTickFormat:e.ticks,testId:`${e.testId}-plot`,markers:o,markerLabel:i}))}function xa(e){let t=e.length>1,{marks:n,label:r}=rn(e),a=(o,i,l,c,d)=>{let u=e.map((m,p)=>({rank:m,i:p,...it(m.t_ns,m[o])})).filter(m=>m.x.length>0).map(m=>({label:t?`rank ${m.rank.rank}`:"this process",color:B(m.i),x:m.x,y:m.y}));return u.length===0?null:nn(i,l,U({series:u,height:180,xLabel:"time since the first sample",formatX:f,formatY:c,yTickFormat:d,testId:`${l}-plot`,markers:n,markerLabel:r}))};return[a("cpu_pct","Process CPU use (% of one core; DataLoader workers not included)","cpu-chart",o=>`${o.toFixed(1)} %`,oe(" %")),a("rss","Process resident memory (RSS)","cpu-rss-chart",_,se)].filter(o=>o!==null)}function _a(e){if(e.gpu_reason!==null)return s("section",{class:"notice","data-testid":"gpu-reason",role:"status"},s("strong",{},"No GPU data: "),`${e.gpu_reason}.`,e.ranks.length?" The process side is shown below.":"");let t=e.ranks.filter(n=>n.gpu_reason!==null);return t.length===0?null:s("section",{class:"notice","data-testid":"gpu-rank-reasons",role:"status"},s("strong",{},"Some ranks have no GPU samples: "),t.map(n=>`rank ${n.rank}: ${n.gpu_reason}`).join("; "))}function ot(e){let t=(e??[]).filter(n=>n!==null);return t.length?t.reduce((n,r)=>n+r,0)/t.length:null}function Sa(e){return ot(e.devices.map(t=>ot(t.util)))??ot(e.cpu_pct)}function Ta(e){let t=e.ranks.some(i=>i.devices.length>0),{charted:n,note:r}=ce(e.ranks,Sa,t?"mean GPU utilization":"mean CPU use"),a=ya.map(i=>ka(i,n)).filter(i=>i!==null),o=n.length===0?s("p",{class:"muted","data-testid":"no-system"},"Start collectors.GpuTracker(timer.writer) in the training processes to sample the GPUs and the process about once a second."):null;return s("div",{class:"gpu","data-testid":"gpu"},_a(e),r,...a,...xa(n),o)}var an={id:"gpu",label:"GPU",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){return Ta(await tn(e,t,n,r))}};function Ne(e,t,n,r,a){return S(`./kernels?${L(e,{rank:t,limit:n})}`,r,a)}var Ma=1e3,ve=(e,t,n="")=>e===null?"—":`${e.toFixed(t)}${n}`,sn=[{key:"name",label:"kernel",numeric:!1,value:e=>e.name},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>b(e.calls)},{key:"total_ns",label:"total",numeric:!0,value:e=>e.total_ns,format:e=>f(e.total_ns)},{key:"mean_ns",label:"mean",numeric:!0,value:e=>e.mean_ns,format:e=>f(e.mean_ns)},{key:"max_ns",label:"max",numeric:!0,value:e=>e.max_ns,format:e=>f(e.max_ns)},{key:"pct_of_kernel_time",label:"% of GPU time",numeric:!0,value:e=>e.pct_of_kernel_time,format:e=>ve(e.pct_of_kernel_time,1," %")},{key:"tensor_cores",label:"Tensor Cores",title:"Guessed from the kernel's name (docs/ANALYSIS.md)",numeric:!1,value:e=>e.tensor_cores?"yes":"no"},{key:"mean_est_occupancy_pct",label:"est. occupancy",numeric:!0,value:e=>e.mean_est_occupancy_pct,format:e=>ve(e.mean_est_occupancy_pct,1," %")},{key:"est_sm_efficiency",label:"est. SM efficiency",numeric:!0,value:e=>e.est_sm_efficiency,format:e=>ve(e.est_sm_efficiency===null?null:e.est_sm_efficiency*100,1," %")}];function De(e,t,n){return{key:e,label:t,title:n,numeric:!0,value:r=>r[e]??null,format:r=>ve(r[e]??null,1," %")}}var Ra=[{key:"ncu_launches",label:"NCU launches",title:"Launches Nsight Compute profiled under this name",numeric:!0,value:e=>e.ncu_launches??0,format:e=>b(e.ncu_launches??0)},{key:"ncu_duration_ns",label:"NCU duration",title:"Mean gpu__time_duration of those launches",numeric:!0,value:e=>e.ncu_duration_ns??null,format:e=>f(e.ncu_duration_ns??null)},De("ncu_sm_throughput_pct","SM throughput","Compute (SM) throughput, % of peak (mean over launches)"),De("ncu_memory_throughput_pct","memory throughput","Memory throughput, % of peak (mean over launches)"),De("ncu_achieved_occupancy_pct","achieved occupancy","Achieved occupancy, % (mean over launches)"),De("ncu_theoretical_occupancy_pct","theoretical occupancy","Theoretical occupancy, % (mean over launches)"),{key:"ncu_registers_per_thread",label:"registers / thread",numeric:!0,value:e=>e.ncu_registers_per_thread??null,format:e=>ve(e.ncu_registers_per_thread??null,0)},{key:"ncu_match",label:"NCU match",title:"How the NCU kernel name matched a trace kernel name (docs/HTTP_API.md)",numeric:!1,value:e=>e.ncu_match??""}];function $a(e){let t=[s("p",{class:"muted","data-testid":"ncu-summary"},`Nsight Compute: ${b(e.launches)} launches from ${e.files.join(", ")}; ${b(e.matched_kernels)} kernel names matched the trace's.`)];for(let[n,r]of[[e.unmatched,"match no kernel of the trace"],[e.ambiguous,"match several kernels of the trace (ambiguous)"]])n.length>0&&t.push(s("p",{class:"muted","data-testid":"ncu-unmatched"},`${b(n.length)} NCU kernel(s) ${r}: ${n.join("; ")}`));return t}function Ea(e){let t=E(),n=t.get("ksort"),r=t.get("kdir");return e.some(a=>a.key===n)&&(r==="asc"||r==="desc")?{key:n,direction:r}:{key:"total_ns",direction:"desc"}}var on="No GPU kernels in this run's traces.";function La(e,t){if(e.length===0)return s("p",{class:"muted"},t??on);let n=e.flatMap((r,a)=>{let o=BigInt(r.start_ns[0]??"0"),i=r.start_ns.map(c=>Number(BigInt(c)-o)),l=`rank ${r.rank} GPU ${r.device}`;return[{label:`${l} utilization`,color:B(2*a),x:i,y:r.utilization.map(c=>c*100)},{label:`${l} est. SM efficiency`,color:B(2*a+1),x:i,y:r.est_sm_efficiency.map(c=>c*100)}]});return U({series:n,height:220,xLabel:"time from the trace's start",formatX:f,formatY:r=>`${r.toFixed(1)} %`,yTickFormat:()=>r=>`${r} %`,testId:"gpu-utilization-chart"})}var ln={id:"kernels",label:"Kernels",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let a=await Ne(e,t,Ma,n,r),o=a.devices.map(c=>`rank ${c.rank} GPU ${c.device}: ${c.tensor_core_pct.toFixed(1)} % of kernel time on Tensor Cores (by name)`),i=a.ncu?[...sn,...Ra]:sn,l=a.rows.length===0?s("p",{class:"muted","data-testid":"kernels-empty"},a.empty_reason??on):P({columns:i,rows:a.rows,testId:"kernel-table",rowTestId:"kernel-row",rowName:c=>c.name,sort:Ea(i),onSortChange:c=>R({ksort:c.key,kdir:c.direction})});return s("div",{class:"overview","data-testid":"kernels"},s("section",{class:"panel"},s("h2",{},"GPU utilization and est. SM efficiency"),La(a.devices,a.empty_reason),...o.map(c=>s("p",{class:"muted"},c))),s("section",{class:"panel"},s("h2",{},"Kernels"),...a.ncu?$a(a.ncu):[],s("div",{class:"table-scroll"},l)))}};var Aa={overview:"Overview",timeline:"Timeline",operators:"Operators",kernels:"Kernels",memory:"Memory",gpu:"GPU",modules:"Modules",python:"Python"};function Pa(e,t){return typeof e!="number"?String(e):t==="ns"?f(e):t==="fraction"?`${(e*100).toFixed(1)} %`:t==="x"?`${e.toFixed(2)}×`:t==="%"?`${e.toFixed(1)} %`:t==="bytes"?_(e):t==="bytes/step"?`${_(e)} per step`:t==="step"?`step ${e}`:t?`${Number.isInteger(e)?b(e):e.toPrecision(3)} ${t}`:String(e)}function Ca(e,t){let n=e.view.tab,r=s("button",{type:"button",class:"link-button","data-testid":"finding-link","data-tab":n},`Open in ${Aa[n]??n}`);r.addEventListener("click",()=>t(n,e.view.params));let a=Object.entries(e.evidence).map(([o,i])=>s("li",{},`${o.replaceAll("_"," ")}: ${Pa(i.value,i.unit)}`));return s("li",{class:`finding severity-${e.severity}`,"data-testid":"finding","data-kind":e.kind,"data-key":e.key,"data-severity":e.severity},s("div",{class:"finding-head"},s("span",{class:`severity-badge severity-${e.severity}`},e.severity),s("strong",{class:"finding-title"},e.title)),s("ul",{class:"finding-evidence"},...a),s("p",{class:"finding-fix"},e.recommendation),r)}function Ie(e,t){let n=e.length===0?s("p",{class:"muted","data-testid":"no-findings"},"No findings: nothing in this run crossed a threshold."):s("ol",{class:"findings","data-testid":"findings"},...e.map(r=>Ca(r,t)));return s("section",{class:"panel"},s("h2",{},"Findings"),n)}function cn(e,t,n,r){return S(`./memory?${L(e,{rank:t})}`,n,r)}function dn(e,t,n,r){return S(`./snapshot?${L(e,{file:t})}`,n,r)}function un(e,t,n,r,a,o,i){let l=L(e,{file:t,device:n,start:r,end:a,width_px:o});return S(`./snapshot/tile?${l}`,i)}function mn(e,t,n,r,a){return S(`./snapshot/allocation?${L(e,{file:t,device:n,index:r})}`,a)}function Oe(e){let t=2166136261;for(let n=0;n<e.length;n+=1)t^=e.charCodeAt(n),t=Math.imul(t,16777619);return(t>>>0)%40}function Fe(e){return Array.from({length:40},(t,n)=>{let r=Math.round(n*137.508%360),a=(e?36:72)+n%3*4;return`hsl(${r} ${e?40:55}% ${a}%)`})}function ye(){let e=getComputedStyle(document.documentElement),t=r=>e.getPropertyValue(r).trim(),n=document.documentElement.dataset.theme==="dark";return{dark:n,background:t("--bg"),surface:t("--surface"),text:t("--fg"),mutedText:t("--fg-muted"),border:t("--border"),grid:t("--grid"),accent:t("--accent"),boxText:n?"#f5f5f5":"#212121",boxes:Fe(n)}}function lt(e){return e.end-e.start}function Z(e,t){let n=lt(t),r=Math.min(n,Math.max(200,lt(e))),a=Math.min(Math.max(e.start,t.start),t.end-r);return{start:a,end:a+r}}function pn(e,t,n,r){let a=t-(t-e.start)*n,o=t+(e.end-t)*n;return Z({start:a,end:o},r)}function hn(e,t,n){return Z({start:e.start+t,end:e.end+t},n)}function ne(e,t,n,r){let a=Math.max(t-e,200)*n;return Z({start:e-a,end:t+a},r)}function fn(e,t,n,r){if(t>=e.start&&n<=e.end)return e;let a=lt(e);if(n-t>a*.8)return ne(t,n,.1,r);let o=(t+n)/2;return Z({start:o-a/2,end:o+a/2},r)}function bn(e,t){let n=Math.max(t-e,200)*.02;return{start:e-n,end:t+n}}var Ha=3,Na=.0015,Da=16,Ia=400,Oa=1,Fa=2,Wa=.8,Ba=.1,za=Math.log(10),Ua=1,Ga=.05;function Xa(e){if(e.ctrlKey||e.metaKey||e.altKey)return null;let t=e.key.toLowerCase();return t==="w"||t==="a"||t==="s"||t==="d"?t:null}function gn(e,t){return t===Oa?e*Da:t===Fa?e*Ia:e}function Ka(e,t,n){let r=gn(e,n),a=gn(t,n);return Math.abs(r)>Math.abs(a)?{kind:"pan",px:r}:{kind:"zoom",factor:Math.exp(a*Na)}}function vn(e,t){if(e==="w"||e==="s"){let r=t===null?Wa:Math.exp(-za*t);return{kind:"zoom",factor:e==="w"?r:1/r}}let n=t===null?Ba:Ua*t;return{kind:"pan",fraction:e==="d"?n:-n}}function qa(e,t){return Math.min(Ga,(e-t)/1e3)}function we(e,t,n,r){return e.start+(t-n)/Math.max(1,r)*(e.end-e.start)}function ke(e,t){return(e.end-e.start)/Math.max(1,t)}function We(e,t,n,r,a,o){let i=t===null?(e.start+e.end)/2:we(e,t,n,r);return pn(e,i,a,o)}function Be(e,t,n,r){return hn(e,t*ke(e,n),r)}function Va(e,t,n){let r=new Set,a=0,o=l=>{l.kind==="zoom"?t.zoomAt(n(),l.factor):t.panBy(l.fraction*t.timeAreaWidth())},i=l=>{if(r.size===0)return;let c=qa(l,a);a=l;for(let d of r)o(vn(d,c));requestAnimationFrame(i)};e.addEventListener("keydown",l=>{if(l.key==="Escape"){t.escape?.();return}let c=Xa(l);c!==null&&(l.preventDefault(),!(l.repeat||r.has(c))&&(o(vn(c,null)),r.add(c),r.size===1&&(a=performance.now(),requestAnimationFrame(i))))}),e.addEventListener("keyup",l=>{r.delete(l.key.toLowerCase())}),e.addEventListener("blur",()=>r.clear())}function ze(e,t,n){let r=n.timeAreaLeft,a=null;n.keys&&Va(e,t,()=>a),e.addEventListener("wheel",i=>{if(i.offsetX<r)return;i.preventDefault();let l=Ka(i.deltaX,i.deltaY,i.deltaMode);l.kind==="pan"?t.panBy(l.px):t.zoomAt(i.offsetX,l.factor)},{passive:!1});let o=null;e.addEventListener("pointerdown",i=>{i.button===0&&(e.setPointerCapture(i.pointerId),o={startX:i.offsetX,lastX:i.offsetX,moved:!1})}),e.addEventListener("pointermove",i=>{if(a=i.offsetX>=r?i.offsetX:null,o===null){t.hoverAt(i.offsetX,i.offsetY);return}Math.abs(i.offsetX-o.startX)>Ha&&(o.moved=!0),o.moved&&(t.panBy(o.lastX-i.offsetX),o.lastX=i.offsetX)}),e.addEventListener("pointerup",i=>{o!==null&&!o.moved&&t.clickAt(i.offsetX,i.offsetY),o=null}),e.addEventListener("pointercancel",()=>{o=null}),e.addEventListener("pointerleave",()=>{a=null,t.hoverEnd()})}var xe=280,yn=18,ja=60;function Ya(e){let{bands:t,steps:n}=e,r=[],a=0;return t.id.forEach((o,i)=>{let l=t.start[i]??0,c=t.y0[i]??0,d=t.steps[i]??0;for(let u=0;u<d;u+=1,a+=1){let m=e.start+((n.px[a]??0)+1)*e.ns_per_px;r.push({band:i,t0:l,t1:m,y:c}),l=m,c=n.y[a]??c}r.push({band:i,t0:l,t1:t.end[i]??l,y:c})}),r}function kn(e){return`${e.filename}:${e.line} (${e.name})`}function wn(e,t,n){return e.length===0&&t<=0?s("p",{class:"muted"},"No stack recorded."):s("ol",{class:"stack-frames","data-testid":n},...e.map(r=>s("li",{},kn(r))),t>0?s("li",{class:"muted stack-more","data-testid":`${n}-more`},`… and ${b(t)} more ${t===1?"frame":"frames"} (not shown)`):null)}var Ue=class{constructor(t,n,r,a,o){this.run=t;this.file=n;this.device=r;this.timeUnit=a;this.signal=o;let i=r.time?Math.max(r.time.end,r.time.start+1):1;this.bounds={start:r.time?.start??0,end:i},this.window=this.bounds;let l=s("button",{type:"button","data-testid":"snapshot-reset"},"Reset zoom");l.addEventListener("click",()=>this.show(this.bounds)),this.element=s("div",{class:"snapshot-viewer","data-testid":"snapshot-viewer"},s("div",{class:"snapshot-toolbar"},l,this.status,s("span",{class:"muted hint"},"Wheel: zoom · drag: pan · click a block: details")),this.stage,this.hover,this.details),this.attachInput(),new ResizeObserver(()=>{let c=Math.floor(this.stage.clientWidth);c===0||c===this.width||(this.width=c,this.draw(),this.schedule())}).observe(this.stage),o.addEventListener("abort",()=>this.fetching.abort(),{once:!0})}run;file;device;timeUnit;signal;element;canvas=s("canvas",{class:"snapshot-canvas","data-testid":"snapshot-canvas",tabindex:0,"aria-label":"Live allocations over time; wheel to zoom, drag to pan, click for details"});stage=s("div",{class:"snapshot-stage"},this.canvas);status=s("span",{class:"muted","data-testid":"snapshot-status"});hover=s("span",{class:"snapshot-hover","data-testid":"snapshot-hover"});details=s("div",{class:"snapshot-details","data-testid":"snapshot-allocation"},s("p",{class:"muted"},"Click a block for its size, lifetime and stack."));bounds;window;drawn=null;width=0;fetching=new AbortController;detailsFetch=new AbortController;timer;formatTime(t){return this.timeUnit==="ns"?te(t):`entry ${Math.round(t)}`}formatSpan(t){return this.timeUnit==="ns"?f(t):`${Math.round(t)} entries`}show(t){this.window=Z(t,this.bounds),this.draw(),this.schedule()}schedule(){clearTimeout(this.timer),this.timer=setTimeout(()=>{this.load()},ja)}async load(){if(this.width===0||this.signal.aborted)return;this.fetching.abort(),this.fetching=new AbortController;let{start:t,end:n}=this.window,r=Math.floor(t),a=Math.max(Math.ceil(n),r+1);try{let o=await un(this.run,this.file,this.device.device,r,a,this.width,this.fetching.signal),i=Math.max(1,...o.pixels.total_max);this.drawn={tile:o,pieces:Ya(o),yMax:i},this.status.textContent=`${o.drawn} of ${o.visible} allocations drawn`+(o.merged?` (${o.merged} too small or too short: grey)`:"")+` · ${this.formatTime(r)} – ${this.formatTime(a)}`,this.draw()}catch(o){if(o instanceof DOMException&&o.name==="AbortError")return;this.status.textContent=`Could not load this window: ${String(o)}`}}x(t){return(t-this.window.start)/(this.window.end-this.window.start)*this.width}draw(){let t=window.devicePixelRatio||1,n=this.width;this.canvas.width=Math.round(n*t),this.canvas.height=Math.round(xe*t),this.canvas.style.width=`${n}px`,this.canvas.style.height=`${xe}px`;let r=this.canvas.getContext("2d");if(!r||n===0)return;let a=ye(),o=Fe(a.dark);r.setTransform(t,0,0,t,0,0),r.fillStyle=a.background,r.fillRect(0,0,n,xe);let i=xe-yn,l=this.drawn;if(l){let{tile:u,pieces:m,yMax:p}=l,h=(i-12)/p;r.fillStyle=a.grid,u.pixels.total_max.forEach((g,y)=>{let v=u.pixels.drawn_max[y]??0;if(g<=v)return;let w=this.x(u.start+y*u.ns_per_px),x=this.x(u.start+(y+1)*u.ns_per_px);r.fillRect(w,i-g*h,Math.max(1,x-w),(g-v)*h)});for(let g of m){let y=u.bands.size[g.band]??0,v=u.labels[u.bands.label[g.band]??0]??"",w=Math.max(-1,this.x(g.t0)),x=Math.min(n+1,this.x(g.t1));if(x<=w)continue;r.fillStyle=o[Oe(v)]??a.accent;let H=i-(g.y+y)*h;r.fillRect(w,H,Math.max(x-w,.5),Math.max(y*h,.5))}r.fillStyle=a.mutedText,r.font="11px sans-serif",r.textBaseline="top",r.fillText(_(p),4,2)}r.strokeStyle=a.border,r.beginPath(),r.moveTo(0,i+.5),r.lineTo(n,i+.5),r.stroke(),r.fillStyle=a.mutedText,r.font="11px sans-serif",r.textBaseline="top",r.fillText(this.formatTime(this.window.start),4,i+4);let c=this.formatTime(this.window.end);r.fillText(c,n-r.measureText(c).width-4,i+4);let d=`${this.formatSpan(this.window.end-this.window.start)} shown`;r.fillText(d,(n-r.measureText(d).width)/2,i+4)}bandAt(t,n){let r=this.drawn;if(!r)return null;let a=xe-yn,o=(a-12)/r.yMax,i=we(this.window,t,0,this.width),l=(a-n)/o,c=ke(this.window,this.width);for(let d of r.pieces){let u=r.tile.bands.size[d.band]??0;if(!(i<d.t0-c||i>=d.t1+c)&&l>=d.y&&l<d.y+Math.max(u,2/o))return d.band}return null}describe(t){let n=this.drawn?.tile;if(!n)return"";let r=n.labels[n.bands.label[t]??0]??"";return`${_(n.bands.size[t]??0)} · ${r}`}async select(t){let r=this.drawn?.tile?.bands.id[t];if(r!==void 0){this.detailsFetch.abort(),this.detailsFetch=new AbortController,this.details.replaceChildren(s("p",{class:"muted"},`Loading allocation ${r}…`));try{let a=await mn(this.run,this.file,this.device.device,r,this.detailsFetch.signal);this.details.replaceChildren(this.allocationView(a))}catch(a){if(a instanceof DOMException&&a.name==="AbortError")return;this.details.replaceChildren(s("p",{role:"alert"},String(a)))}}}allocationView(t){let n=(r,a)=>s("tr",{},s("th",{},r),s("td",{"data-field":r},a));return s("div",{},s("h3",{},`Allocation ${t.index}: ${_(t.size)}`),s("table",{class:"details-table"},s("tbody",{},n("size",`${_(t.size)} (${t.size.toLocaleString("en-US")} B)`),n("address",`0x${t.addr.toString(16)}`),n("allocated",t.allocated_before_trace?"before the trace began":this.formatTime(t.t_alloc)),n("freed",t.live_at_snapshot?"still live at the snapshot":this.formatTime(t.t_free)),n("lifetime",`${this.formatSpan(t.lifetime)}${t.allocated_before_trace||t.live_at_snapshot?" or more":""}`),n("stream",String(t.stream)),n("first user frame",t.first_user_frame?kn(t.first_user_frame):"—"))),s("h4",{},"Allocated at"),wn(t.frames,t.more_frames??0,"allocation-frames"),t.free_frames.length?s("h4",{},"Freed at"):null,t.free_frames.length?wn(t.free_frames,t.more_free_frames??0,"free-frames"):null)}attachInput(){ze(this.canvas,{zoomAt:(t,n)=>this.show(We(this.window,t,0,this.width,n,this.bounds)),panBy:t=>this.show(Be(this.window,t,this.width,this.bounds)),timeAreaWidth:()=>this.width,clickAt:(t,n)=>{let r=this.bandAt(t,n);r!==null&&this.select(r)},hoverAt:(t,n)=>{let r=this.bandAt(t,n);this.hover.textContent=r===null?"":this.describe(r)},hoverEnd:()=>{this.hover.textContent=""}},{timeAreaLeft:0,keys:!1})}};var Ja=["allocated","reserved","peak","rss"],Za={allocated:"allocated",reserved:"reserved",peak:"peak allocated",rss:"RSS"},Qa="#d62728";function _e(e,t,...n){return s("section",{class:"panel","data-testid":t},s("h2",{},e),...n)}function es(e){return e instanceof DOMException&&e.name==="AbortError"}function ts(e,t){let n={x:[],y:[]};return t.forEach((r,a)=>{let o=e[a];r!==null&&o!==void 0&&(n.x.push(o),n.y.push(r))}),n}function xn(e,t){let n=e.length>1,r=[],a=0;for(let o of e){for(let l of Ja){let c=o[l];if(!c)continue;let{x:d,y:u}=ts(o[t],c);if(d.length===0)continue;let m=`${n?`rank ${o.rank} `:""}${Za[l]}`;r.push({label:m,color:B(a),x:d,y:u}),a+=1}let i=o.trend;t==="steps"&&i?.leak&&r.push({label:`${n?`rank ${o.rank} `:""}leak trend (${_(i.slope)}/step)`,color:Qa,x:[i.first_step,i.last_step],y:[i.start_level,i.end_level],dashed:!0})}return r}function ns(e){let t=e.ranks;if(t.length===0)return[s("p",{class:"muted","data-testid":"no-memory"},e.empty_reason??"No MemorySampler records in this run. Wrap the training loop in “with MemorySampler(timer):” (from collectors) to record memory every step.")];let n=new Set(t.filter(u=>u.trend?.leak).map(u=>u.rank)),r=u=>u.rss?.filter(m=>m!==null).at(-1)??null,{charted:a,note:o}=ce(t,u=>u.max_peak?.bytes??r(u),"peak allocation (the last RSS without CUDA)",n),i=Math.max(...t.map(u=>u.bucket)),l=i>1?s("p",{class:"muted"},`Each point is the mean of ${i} consecutive steps (peak: their maximum).`):null,c=U({series:xn(a,"steps"),height:280,xLabel:"step",formatX:u=>String(u),formatY:_,yTickFormat:se,testId:"memory-step-chart"}),d=U({series:xn(a,"t_ns"),height:220,xLabel:"time since the first sample",formatX:f,formatY:_,yTickFormat:se,testId:"memory-time-chart"});return[_e("Memory per step","memory-steps",o,c,l),_e("Memory over time","memory-time",d)]}var rs=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"device",label:"device",numeric:!1,value:e=>e.device},{key:"device_total",label:"device memory",numeric:!0,value:e=>e.device_total,format:e=>_(e.device_total)},{key:"peak",label:"peak allocated",title:"The highest peak (else allocated) any step recorded",numeric:!0,value:e=>e.max_peak?.bytes??null,format:e=>_(e.max_peak?.bytes)},{key:"peak_share",label:"% of device",numeric:!0,value:e=>(e.max_peak?.share??null)===null?null:(e.max_peak?.share??0)*100,format:e=>X(e.max_peak?.share===null||!e.max_peak?null:e.max_peak.share*100)},{key:"unused",label:"reserved above peak",title:"Median over steps after warm-up of reserved memory the peak never used (fragmentation)",numeric:!0,value:e=>e.fragmentation?.unused??null,format:e=>e.fragmentation?`${_(e.fragmentation.unused)} (${(e.fragmentation.unused_fraction*100).toFixed(0)} %)`:"—"},{key:"retries",label:"alloc retries",numeric:!0,value:e=>e.fragmentation?.retries??null,format:e=>b(e.fragmentation?.retries)},{key:"slope",label:"trend per step",title:"Theil-Sen slope after warm-up (allocated on CUDA, else RSS), with its 95 % interval",numeric:!0,value:e=>e.trend?.slope??null,format:e=>e.trend?`${_(e.trend.slope)} [${_(e.trend.low)}, ${_(e.trend.high)}]`:"—"}],as=[{key:"label",label:"first user frame",numeric:!1,value:e=>e.label},{key:"peak_bytes",label:"live at peak",numeric:!0,value:e=>e.peak_bytes,format:e=>`${_(e.peak_bytes)} (${b(e.peak_count)})`},{key:"snapshot_bytes",label:"live at snapshot",numeric:!0,value:e=>e.snapshot_bytes,format:e=>`${_(e.snapshot_bytes)} (${b(e.snapshot_count)})`},{key:"trace_bytes",label:"allocated in trace",numeric:!0,value:e=>e.trace_bytes,format:e=>`${_(e.trace_bytes)} (${b(e.trace_count)})`}],ss=[{key:"index",label:"allocation",numeric:!0,value:e=>e.index},{key:"size",label:"size",numeric:!0,value:e=>e.size,format:e=>_(e.size)},{key:"frame",label:"first user frame",numeric:!1,value:e=>e.first_user_frame?`${e.first_user_frame.filename}:${e.first_user_frame.line} (${e.first_user_frame.name})`:"—"}];function os(e,t,n,r){let a=new Ue(e,t.file,n,t.time_unit,r),o=n.by_first_user_frame.length;return s("div",{class:"snapshot-device","data-testid":"snapshot-device"},s("p",{class:"muted"},`Device ${n.device}: ${_(n.reserved_bytes)} reserved, ${_(n.allocated_bytes)} allocated at the snapshot; at most ${_(n.peak.live_bytes)} live at once (with ${_(n.peak.reserved_bytes)} reserved); ${b(n.allocations)} allocations.`),s("h3",{},"What holds the peak, by first user frame"),s("div",{class:"table-scroll"},P({columns:as,rows:n.by_first_user_frame,testId:"peak-frames",rowTestId:"peak-frame",rowName:i=>i.label})),o<n.frames_total?s("p",{class:"muted"},`The ${o} of ${n.frames_total} groups with the most memory at the peak.`):null,s("h3",{},"Largest allocations at the peak"),s("div",{class:"table-scroll"},P({columns:ss,rows:n.largest_at_peak,testId:"peak-largest",rowTestId:"peak-allocation",rowName:i=>String(i.index)})),s("h3",{},"Allocations over time"),a.element)}function is(e,t,n){let r=t.devices,a=s("div",{}),o=s("select",{"data-testid":"snapshot-device-select","aria-label":"Device"},...r.map(c=>s("option",{value:String(c.device)},`cuda:${c.device}`))),i=()=>{let c=r.find(d=>String(d.device)===o.value)??r[0];a.replaceChildren(c?os(e,t,c,n):s("p",{class:"muted"},"This snapshot holds no device."))};o.addEventListener("change",i),i();let l=t.trace_entries.oom??0;return s("div",{"data-testid":"snapshot-summary"},s("p",{},`${t.format} snapshot, ${_(t.reserved_bytes)} reserved, ${_(t.allocated_bytes)} allocated, free blocks ${(t.fragmentation.external*100).toFixed(0)} % fragmented`+(l?`; ${l} out-of-memory error(s) in its trace`:"")+(t.time_unit==="index"?"; no times recorded (entries in order)":"")),r.length>1?s("label",{},"Device ",o):null,a)}function ls(e,t,n,r){if(t.length===0)return _e("Memory snapshots","snapshots",s("p",{class:"muted","data-testid":"no-snapshots"},"No memory snapshots in this run. Record CUDA allocator history around a few steps with MemorySnapshotter (ENABLE_MEMORY_SNAPSHOT=1) to see what holds the peak, by line of code, and every allocation over time."));let a=s("select",{"data-testid":"snapshot-select","aria-label":"Snapshot"},...t.map(c=>s("option",{value:c.file},`${c.file} (${c.rank===null?"rank unknown":`rank ${c.rank}`}, ${_(c.bytes)})`)));a.value=t.some(c=>c.file===n)?n??"":t[0]?.file??"";let o=s("div",{class:"snapshot-body"}),i=new AbortController,l=async()=>{i.abort(),i=new AbortController;let c=AbortSignal.any([r,i.signal]),d=a.value;o.replaceChildren(s("p",{class:"muted"},`Loading ${d}…`));try{let u=await dn(e,d,c,m=>{o.replaceChildren(s("p",{class:"muted"},`Loading ${d}… ${Math.round(m.fraction*100)} %`))});o.replaceChildren(is(e,u,c))}catch(u){if(es(u))return;o.replaceChildren(s("div",{class:"error",role:"alert","data-testid":"snapshot-error"},s("strong",{},`Could not read ${d}`),s("p",{},u instanceof Error?u.message:String(u))))}};return a.addEventListener("change",()=>{l()}),l(),_e("Memory snapshots","snapshots",s("label",{},"Snapshot ",a),o)}function cs(e){return e.length===0?null:s("section",{class:"warnings","data-testid":"warnings",role:"status"},s("h2",{},`${e.length} warning(s) while reading memory data`),s("ul",{},...e.map(t=>s("li",{},t))))}function ds(e,t,n,r){let a=e.ranks.length>0?_e("Peak and fragmentation per rank","memory-ranks",s("div",{class:"table-scroll"},P({columns:rs,rows:e.ranks,testId:"memory-rank-table",rowTestId:"memory-rank-row",rowName:o=>String(o.rank)}))):null;return s("div",{class:"memory","data-testid":"memory"},cs(e.warnings),Ie(e.findings,t),...ns(e),a,ls(e.run,e.snapshots,n,r))}var _n={id:"memory",label:"Memory",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,navigate:a,params:o}){let i=await cn(e,t,n,r),l=typeof o.snapshot=="string"?o.snapshot:null;return ds(i,a,l,n)}};function Sn(e,t,n,r){return S(`./modules?${L(e,{rank:t})}`,n,r)}function Tn(e,t,n,r,a){return S(`./module_steps?${L(e,{rank:t,path:n,phase:r})}`,a)}function Mn(e){let t=new Set(e.map(a=>a.path)),n=[],r=new Map;for(let a of e){if(a.parent===null||!t.has(a.parent)){n.push(a);continue}let o=r.get(a.parent);o?o.push(a):r.set(a.parent,[a])}return{roots:n,children:r}}function Rn(e,t){let n=new Set;return e.filter(r=>r.parent!==null&&(t.has(r.parent)||n.has(r.parent))?(n.add(r.path),!1):!0)}function $n(e,t,n,r=.5){let a=[],o=new Map,i=d=>{let u=o.get(d.path);return u===void 0&&(u=Math.max(0,t(d)),u===0&&(u=l(e.children.get(d.path)??[])),o.set(d.path,u)),u},l=d=>d.reduce((u,m)=>u+i(m),0),c=(d,u,m,p,h)=>{let g=u;for(let y of d){let v=p>0?m*i(y)/p:0;if(v>=r){a.push({row:y,x:g,width:v,level:h});let w=e.children.get(y.path)??[];c(w,g,v,Math.max(i(y),l(w)),h+1)}g+=v}};return c(e.roots,0,n,l(e.roots),0),a}var ct=20,us=6.5,ms=24;function ps(e,t){let n=Math.floor((t-6)/us);return t<ms||n<2?"":e.length<=n?e:`${e.slice(0,n-1)}…`}function hs(e,t){let n=$n(e.tree,e.value,t),r=n.reduce((o,i)=>Math.max(o,i.level+1),0),a=M("svg",{width:t,height:r*ct,class:"icicle-svg",role:"img","aria-label":"Module time as an icicle chart"});for(let{row:o,x:i,width:l,level:c}of n){let d=c*ct,u=M("g",{class:o.path===e.selected?"icicle-cell selected":"icicle-cell","data-testid":"icicle-cell","data-path":o.path},M("title",{},e.tooltip(o)),M("rect",{x:i.toFixed(2),y:d,width:Math.max(l-1,.5).toFixed(2),height:ct-1,fill:e.color(o)})),m=ps(e.label(o),l);m&&u.append(M("text",{class:"icicle-label",x:(i+3).toFixed(2),y:d+14},m)),u.addEventListener("click",()=>e.onSelect(o)),a.append(u)}return a}function En(e){let t=s("div",{class:"icicle","data-testid":"module-icicle"}),n=0;return new ResizeObserver(()=>{let r=t.clientWidth;r===0||r===n||(n=r,t.replaceChildren(hs(e,r)))}).observe(t),t}var fs=200,bs=2,gs=16,Cn={forward:"forward",backward:"backward",total:"forward + backward"};function dt(e){return e.path===""?`(model) ${e.type}`:e.name}function vs(e){return e instanceof DOMException&&e.name==="AbortError"}function Ge(e,t){return e[t.phase]}function Ln(e,t){let n=Ge(e,t);return n?(t.time==="device"?n.gpu_total_ns:n.total_ns)??0:0}function j(e,t,n,r,a=f){let o=i=>Ge(i,r)?.[e]??null;return{key:e,label:t,title:n,numeric:!0,value:o,format:i=>a(o(i))}}function ys(e,t,n,r){let a={key:"name",label:"module",numeric:!1,value:d=>d.path,render:d=>{let u=!t.has(d.path),m=n(d)?s("button",{type:"button",class:"tree-toggle","data-testid":"module-toggle","aria-expanded":String(u),"aria-label":`${u?"Collapse":"Expand"} ${dt(d)}`},u?"▾":"▸"):s("span",{class:"tree-toggle-space"});return m.addEventListener("click",p=>{p.stopPropagation(),r(d)}),s("span",{class:"tree-cell",style:`padding-left:${d.depth*gs}px`,title:d.path},m,dt(d))}},o={key:"type",label:"type",numeric:!1,value:d=>d.type},i=j("calls","calls","Calls in this phase",e,b),l={key:"params",label:"params",title:"Parameters in its subtree (shared ones once)",numeric:!0,value:d=>d.params,format:d=>b(d.params)},c=j("pct_of_step","% of step","Its time per covered step over the mean step time (docs/ANALYSIS.md)",e,X);return e.time==="device"?[a,o,i,j("gpu_total_ns","device total","CUDA-event time of its calls",e),j("gpu_mean_ns","device mean","Per call, in steps with device times",e),j("total_ns","host total","Host time of its calls",e),l]:[a,o,i,j("self_ns","self","Total minus the profiled modules called inside it",e),j("total_ns","total","Time of its calls, nested modules included",e),j("mean_ns","mean","Per call",e),j("p95_ns","p95","Per call (from the recorded samples)",e),c,l]}function ws(e){let t=e.steps.map(a=>{let o=a.step_time_ns===null?"":`, mean step ${f(a.step_time_ns)}`;return`rank ${a.rank}: ${b(a.steps)} steps${o}`}).join("; "),r=[(e.source==="collector"?"ModuleProfiler records: attribute paths, forward and backward calls.":"From torch.profiler traces: forward calls only (backward runs outside module calls).")+(t?` Covered steps — ${t}.`:"")];if(e.class_names&&r.push(s("strong",{"data-testid":"module-class-names"}," Names are class names with a per-class counter (Linear_3), not attribute paths; the tree comes from how calls nest. Record with collectors.ModuleProfiler for paths.")),e.total_rows>e.rows.length){let a=`${b(e.rows.length)} of ${b(e.total_rows)}`;r.push(` Showing the first ${a} modules.`)}return s("p",{class:"muted","data-testid":"module-note"},...r)}function ks(e){let t=[];return e.backward||t.push("backward not profiled"),e.every_n_steps>1&&t.push(`profiled one step in ${e.every_n_steps}`),e.aggregate_steps>1&&t.push(`records aggregate ${e.aggregate_steps} steps`),e.gpu?.startsWith("off")&&t.push(`no device times: GPU timing ${e.gpu}`),e.max_depth!==null&&t.push(`modules to depth ${e.max_depth}`),e.include.length>0&&t.push(`only ${e.include.join(", ")}`),e.exclude.length>0&&t.push(`excluding ${e.exclude.join(", ")}`),t}function xs(e){return e.charAt(0).toUpperCase()+e.slice(1)+(e.endsWith(".")?"":".")}function _s(e){let t=[];for(let n of e){let r=ks(n);if(r.length===0&&n.compiled===null)continue;let a=n.ranks.length===1?"rank":"ranks",o=e.length>1?` (${a} ${n.ranks.join(", ")})`:"",i=r.length>0?`: ${r.join(" · ")}`:"";t.push(`${t.length>0?" ":""}ModuleProfiler${o}${i}.`),n.compiled!==null&&t.push(s("strong",{"data-testid":"module-compiled"},` ${xs(n.compiled)}`))}return t.length===0?null:s("p",{class:"muted","data-testid":"module-settings"},...t)}function Ss(e){return e.length===0?null:s("div",{class:"warnings",role:"status","data-testid":"module-warnings"},s("strong",{},"Some module records could not be read"),s("ul",{},...e.map(t=>s("li",{},t))))}function An(e,t,n,r){let a=s("select",{"aria-label":e,"data-testid":t},...n.map(([o,i])=>s("option",{value:o},i)));return a.value=r,a}function Ts(e){return e?`inputs ${JSON.stringify(e.inputs)} → output ${JSON.stringify(e.output)}`:null}function Ms(e,t,n){let r=[];for(let l of e.series){let c=B(n.indexOf(l.rank)),d=t==="device"&&l.device_ns?l.device_ns:l.host_ns,u=l.steps.flatMap((m,p)=>{let h=d[p];return h==null?[]:[[m,h]]});u.length!==0&&r.push({label:`rank ${l.rank}${t==="device"&&l.device_ns?" (device)":""}`,color:c,x:u.map(([m])=>m),y:u.map(([,m])=>m)})}if(r.length===0)return s("p",{class:"muted","data-testid":"module-step-chart-empty"},"No per-step times: no step covers this module's calls.");let a=Math.max(...e.series.map(l=>l.bucket)),o=U({series:r,height:220,xLabel:"step",formatX:l=>String(l),formatY:f,yTickFormat:Ee,testId:"module-step-chart"});if(a===1)return o;let i=`Each point is the mean of ${a} consecutive steps.`;return s("div",{},o,s("p",{class:"muted"},i))}function Pn(e,t){let n=Ge(e,t);if(!n)return`Not called in ${Cn[t.phase]}.`;let r=[`${b(n.calls)} calls`,`total ${f(n.total_ns)}`,`self ${f(n.self_ns)}`,`mean ${f(n.mean_ns)}`];return n.median_ns!==null&&r.push(`median ${f(n.median_ns)}`),n.std_ns!==null&&r.push(`std ${f(n.std_ns)}`),n.p95_ns!==null&&r.push(`p95 ${f(n.p95_ns)}`),n.gpu_total_ns!==null&&r.push(`device ${f(n.gpu_total_ns)}`),e.params!==null&&r.push(`${b(e.params)} params`),r.join(" · ")}function Rs(e){return s("p",{class:"muted","data-testid":"modules-empty"},e??"No module calls in this run. Wrap the model in collectors.ModuleProfiler(model, timer) for forward and backward time per attribute path; or record traces with Lightning's PyTorchProfiler, or with profile_steps(..., with_stack=True) (torch.profiler's with_stack=True) in eager mode.")}var Hn={id:"modules",label:"Modules",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let a=await Sn(e,t,n,r),o=s("section",{class:"panel"},s("h2",{},"Modules")),i=_s(a.settings);i&&o.append(i);let l=s("div",{class:"overview","data-testid":"modules"},o),c=Ss(a.warnings);if(a.rows.length===0)return o.append(Rs(a.empty_reason)),c&&o.append(c),l;if(!a.rows.some(k=>k.forward||k.backward)){let k=t===null?"Modules are declared, but no calls are recorded yet.":`No module calls recorded on rank ${t}; select another rank.`;return o.append(s("p",{class:"muted","data-testid":"module-note"},k)),l}let d=E(),u=a.phases,m=d.get("modphase"),p={phase:m&&u.includes(m)?m:u.includes("total")?"total":"forward",time:a.device&&d.get("modtime")==="device"?"device":"host"},h=Mn(a.rows),g=k=>(h.children.get(k.path)?.length??0)>0,y=new Set(a.rows.length<=fs?[]:a.rows.filter(k=>k.depth>=bs-1&&g(k)).map(k=>k.path)),v=a.steps.map(k=>k.rank),w=[...new Set(a.rows.map(k=>k.type))],x=a.rows.find(k=>k.path===d.get("modpath"))??null,H=An("Phase","module-phase",u.map(k=>[k,Cn[k]]),p.phase),K=An("Time","module-time",[["host","host time"],["device","device time"]],p.time);H.hidden=u.length<2,K.hidden=!a.device;let T=s("div"),$=s("div",{class:"table-scroll"}),z=s("div",{class:"module-detail","data-testid":"module-detail"}),D=new AbortController;n.addEventListener("abort",()=>D.abort());let Te=()=>{let k=x?.path??null,A="[data-testid=icicle-cell], [data-testid=module-row]";for(let I of l.querySelectorAll(A)){let G=I.getAttribute("data-path")??I.getAttribute("data-name");I.classList.toggle("selected",G===k)}},re=async()=>{if(D.abort(),D=new AbortController,x===null){z.replaceChildren(s("p",{class:"muted"},"Click a module (a row or a cell) to see its time per step."));return}let k=x,A=s("h3",{},`${k.path===""?"(model)":k.path} · ${k.type}`);z.replaceChildren(A,s("p",{},Pn(k,p)),s("p",{class:"muted"},"Loading steps…"));try{let I=await Tn(e,t,k.path,p.phase,D.signal),G=Ts(I.shapes);z.replaceChildren(A,s("p",{},Pn(k,p)),...G?[s("p",{class:"muted"},G)]:[],Ms(I,p.time,v))}catch(I){if(!vs(I)){let G=`Could not load its steps: ${String(I)}`;z.replaceChildren(A,s("p",{role:"alert"},G))}}},Me=k=>{x=k,R({modpath:k.path}),Te(),re()},q=()=>{let k=P({columns:ys(p,y,g,A=>{y.has(A.path)?y.delete(A.path):y.add(A.path),q()}).filter(A=>!A.numeric||a.rows.some(I=>A.value(I)!==null)),rows:Rn(a.rows,y),testId:"module-table",rowTestId:"module-row",rowName:A=>A.path,rowClass:A=>A.path===x?.path?"selected":void 0});k.addEventListener("click",A=>{let I=A.target instanceof Element?A.target.closest("tr[data-name]"):null,G=I&&a.rows.find(Or=>Or.path===I.getAttribute("data-name"));G&&Me(G)}),$.replaceChildren(k)},ae=()=>{T.replaceChildren(En({tree:h,value:k=>Ln(k,p),label:dt,tooltip:k=>{let A=Ge(k,p),I=A?.pct_of_step==null?"":` · ${X(A.pct_of_step)} of step`;return`${k.path===""?"(model)":k.path} (${k.type}): ${f(Ln(k,p))}${I}`},color:k=>B(w.indexOf(k.type)),selected:x?.path??null,onSelect:Me})),q(),re()};return H.addEventListener("change",()=>{p.phase=H.value,R({modphase:p.phase}),ae()}),K.addEventListener("change",()=>{p.time=K.value==="device"?"device":"host",R({modtime:p.time==="device"?"device":null}),ae()}),ae(),o.append(ws(a),...c?[c]:[],s("div",{class:"controls"},H,K),T,z,$),l}};function Xe(e,t,n,r,a,o){let i=`./operators?${L(e,{rank:t,group_by:n,limit:r})}`;return S(i,a,o)}var $s=1e3,Es=10;function Ke(e,t,n){return W(e,t,r=>r[e],n)}var Ls=[{key:"name",label:"operator",numeric:!1,value:e=>e.name},{key:"input_dims",label:"input shapes",numeric:!1,value:e=>e.input_dims},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>b(e.calls)},Ke("device_self_ns","device self","Kernels, copies and fills it launched itself"),Ke("device_total_ns","device total","Device self of the op and everything nested in it"),Ke("host_self_ns","host self","Host time minus its direct children (as key_averages)"),Ke("host_total_ns","host total","Host time of its calls")];function As(e,t){let n=E(),r=n.get("opsort"),a=n.get("opdir");return e.some(o=>o.key===r)&&(a==="asc"||a==="desc")?{key:r,direction:a}:{key:t?"device_self_ns":"host_self_ns",direction:"desc"}}function Ps(e,t){let n=e.some(r=>r.device_total_ns>0);return Ls.filter(r=>(t||r.key!=="input_dims")&&(n||!r.key.startsWith("device_")))}function Cs(e){let t=e.some(o=>o.device_self_ns>0),n=o=>t?o.device_self_ns:o.host_self_ns,r=[...e].sort((o,i)=>n(i)-n(o)).slice(0,Es),a=Math.max(1,...r.map(n));return s("div",{class:"top-bars","data-testid":"operator-bars"},s("p",{class:"muted"},`Top ${r.length} by ${t?"device":"host"} self time`),...r.map(o=>s("div",{class:"top-bar-row"},s("span",{class:"top-bar-label",title:o.name},o.name),s("span",{class:"top-bar-track"},s("span",{class:"top-bar",style:`width: ${(n(o)/a*100).toFixed(2)}%`})),s("span",{class:"top-bar-value"},f(n(o))))))}var Nn={id:"operators",label:"Operators",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,params:a}){let o=s("input",{type:"search",class:"search-input",placeholder:"Filter operators","aria-label":"Filter operators","data-testid":"operator-filter",value:String(a.q??E().get("opq")??"")}),i=s("select",{"aria-label":"Group by","data-testid":"operator-group"},s("option",{value:"name"},"by name"),s("option",{value:"input_dims"},"by name and input shapes"));i.value=E().get("opgroup")==="input_dims"?"input_dims":"name";let l=s("p",{class:"muted","data-testid":"operator-caption"}),c=s("div"),d=s("div",{class:"table-scroll"}),u=[],m=()=>{let g=o.value.trim().toLowerCase(),y=u.filter(x=>g===""||x.name.toLowerCase().includes(g)),v=Ps(u,i.value==="input_dims"),w=v.some(x=>x.key==="device_self_ns");c.replaceChildren(Cs(y)),d.replaceChildren(P({columns:v,rows:y,testId:"operator-table",rowTestId:"operator-row",rowName:x=>x.name,sort:As(v,w),onSortChange:x=>R({opsort:x.key,opdir:x.direction})})),R({opq:g===""?null:o.value})},p=new AbortController,h=async g=>{p.abort(),p=new AbortController;let y=i.value==="input_dims"?"input_dims":"name",v=g?n:p.signal,w=await Xe(e,t,y,$s,v,r);u=w.rows,l.textContent=w.total_rows===0&&w.empty_reason!==null?w.empty_reason:w.total_rows>w.rows.length?`Showing ${w.rows.length} of ${b(w.total_rows)} operators.`:`${b(w.total_rows)} operators.`,m()};return o.addEventListener("input",m),i.addEventListener("change",()=>{R({opgroup:i.value==="input_dims"?"input_dims":null}),h(!1).catch(g=>{g instanceof DOMException&&g.name==="AbortError"||(l.textContent=`Could not load operators: ${String(g)}`)})}),await h(!0),s("div",{class:"overview","data-testid":"operators"},s("section",{class:"panel"},s("h2",{},"Operators"),s("div",{class:"controls"},o,i),l,c,d))}};function Dn(e,t,n){return S(`./findings?${L(e)}`,t,n)}function In(e,t,n,r){return S(`./breakdown?${L(e,{rank:t})}`,n,r)}var ut=40;function Hs(e,t){let n=t.map((a,o)=>{let i=e.ns[a]??0,l=e.duration_ns>0?i/e.duration_ns:0;return s("span",{class:`breakdown-part category-${a}`,style:`width: ${(l*100).toFixed(3)}%; background: ${a==="idle"?"var(--grid)":B(o)}`,title:`${a}: ${f(i)} (${(l*100).toFixed(1)} %)`})}),r=e.step===null?"trace":`step ${e.step}`;return s("div",{class:"breakdown-row","data-testid":"breakdown-bar"},s("span",{class:"breakdown-label"},r),s("span",{class:"breakdown-bar","aria-label":r},...n),s("span",{class:"breakdown-total muted"},f(e.duration_ns)))}function On(e){if(e.ranks.length===0)return s("p",{class:"muted"},"No traces in this run: record some steps with profile_steps to see what each step is made of.");let t=s("div",{class:"legend"},...e.categories.map((i,l)=>s("span",{class:"legend-item"},s("span",{class:"legend-swatch",style:`background: ${i==="idle"?"var(--grid)":B(l)}`}),i))),n=({steps:i})=>i.length?i.reduce((l,c)=>l+c.duration_ns,0)/i.length:null,{charted:r,note:a}=ce(e.ranks,n,"mean traced step time"),o=r.map(({rank:i,steps:l})=>s("div",{class:"breakdown-rank"},s("h3",{},`rank ${i}`),...l.slice(0,ut).map(c=>Hs(c,e.categories)),l.length>ut?s("p",{class:"muted"},`First ${ut} of ${l.length} steps.`):null));return s("div",{class:"breakdown","data-testid":"breakdown"},a,t,...o)}function Fn(e,t,n,r){let a=new URLSearchParams({run:e});return t!==null&&a.set("rank",String(t)),S(`./summary?${a}`,n,r)}var Wn={key:"total_ns",direction:"desc"},Bn=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"host",label:"host",numeric:!1,value:e=>e.host},{key:"pid",label:"pid",numeric:!0,value:e=>e.pid,format:e=>String(e.pid)},{key:"status",label:"status",numeric:!1,value:e=>e.status},{key:"steps",label:"steps",numeric:!0,value:e=>e.steps,format:e=>b(e.steps)},W("mean","mean step",e=>e.step_time_ns?.mean??null),W("p50","p50 step",e=>e.step_time_ns?.p50??null),W("p95","p95 step",e=>e.step_time_ns?.p95??null),W("max","max step",e=>e.step_time_ns?.max??null)],Ns=[{key:"tflops",label:"TFLOP/s",numeric:!0,value:e=>e.compute?.achieved_tflops??null,format:e=>Ds(e.compute?.achieved_tflops),title:"Median achieved model TFLOP/s over the steps (FlopsCounter's count of one step)"},{key:"mfu",label:"MFU",numeric:!0,value:e=>e.compute?.mfu??null,format:e=>X(e.compute?.mfu===null||e.compute?.mfu===void 0?null:e.compute.mfu*100),title:"Median model FLOPs utilization: achieved FLOP/s over the device's peak for the dtype"}];function Ds(e){return e==null?"—":e>=10?e.toFixed(0):e.toPrecision(2)}var Is=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},W("compile_ns","compile time",e=>e.compile?.compile_ns??null),{key:"graphs",label:"graphs",numeric:!0,value:e=>e.compile?.graphs??null,format:e=>b(e.compile?.graphs)},{key:"recompiles",label:"recompiles",numeric:!0,value:e=>e.compile?.recompiles??null,format:e=>b(e.compile?.recompiles)},{key:"graph_breaks",label:"graph breaks",numeric:!0,value:e=>e.compile?.graph_breaks??null,format:e=>b(e.compile?.graph_breaks)},{key:"limit_hits",label:"limit hits",numeric:!0,value:e=>e.compile?.limit_hits??null,format:e=>b(e.compile?.limit_hits),title:"Functions that reached dynamo's recompile limit and now run uncompiled"}];function Os(e){let t=e.filter(a=>a.compile!==null);if(t.length===0)return null;let n=t.flatMap(a=>[...(a.compile?.recompile_reasons??[]).map(o=>`rank ${a.rank}: recompiled ${o.function} ×${o.count}: ${o.reason}`),...(a.compile?.break_reasons??[]).map(o=>`rank ${a.rank}: graph break ×${o.count}: ${o.reason}`)]),r=t.every(a=>a.compile?.source==="trace");return de("torch.compile",s("p",{class:"muted"},r?"From the compiled regions of the traces (collectors.CompileMonitor adds graph breaks and reasons).":"From collectors.CompileMonitor (docs/COMPUTE.md)."),s("div",{class:"table-scroll"},P({columns:Is,rows:t,testId:"compile-table",rowTestId:"compile-row",rowName:a=>String(a.rank)})),n.length?s("ul",{class:"compile-reasons","data-testid":"compile-reasons"},...n.map(a=>s("li",{},a))):null)}function Fs(e){let t=[{key:"name",label:"name",numeric:!1,value:n=>n.name},{key:"calls",label:"calls",numeric:!0,value:n=>n.calls,format:n=>b(n.calls)},W("total_ns","total",n=>n.total_ns,"Sum of the span's durations"),W("self_ns","self",n=>n.self_ns,"Total minus the time of direct child spans"),W("mean_ns","mean",n=>n.mean_ns),W("p50_ns","p50",n=>n.p50_ns),W("p95_ns","p95",n=>n.p95_ns),{key:"pct_of_step",label:"% of step",title:"Total as a share of all step time of the selected ranks (can exceed 100 % for spans outside steps)",numeric:!0,value:n=>n.pct_of_step,format:n=>X(n.pct_of_step)}];return e&&t.push(W("gpu_total_ns","GPU total",r=>r.gpu_total_ns,"Sum of the spans' CUDA-event durations")),t}function Ws(e){let t=E(),n=t.get("sort"),r=t.get("dir");return!e.some(a=>a.key===n)||r!=="asc"&&r!=="desc"?Wn:{key:n??Wn.key,direction:r}}function de(e,...t){return s("section",{class:"panel"},s("h2",{},e),...t)}function Bs(e){return e.length===0?null:s("section",{class:"warnings","data-testid":"warnings",role:"status"},s("h2",{},e.length===1?"1 warning while reading this run":`${e.length} warnings while reading this run`),s("ul",{},...e.map(t=>s("li",{},t))))}function zs(e){let t=e.step_series.filter(i=>i.steps.length>0);if(t.length===0)return s("p",{class:"muted"},"No completed steps yet.");let n=e.ranks.map(i=>i.rank),r=Math.max(...t.map(i=>i.bucket)),a=U({series:t.map(i=>({label:`rank ${i.rank}`,color:B(n.indexOf(i.rank)),x:i.steps,y:i.time_ns})),height:260,xLabel:"step",formatX:i=>String(i),formatY:f,yTickFormat:Ee,testId:"step-chart"}),o=r>1?s("p",{class:"muted"},`Each point is the mean of ${r} consecutive steps.`):null;return s("div",{},a,o)}function Us(e){if(e.spans.length===0)return s("p",{class:"muted"},"No timer spans in this run. Wrap code in MyTimer spans to see where step time goes.");let t=Fs(e.spans.some(a=>a.gpu_total_ns!==null)),n=P({columns:t,rows:e.spans,testId:"span-table",rowTestId:"span-row",rowName:a=>a.name,sort:Ws(t),onSortChange:a=>R({sort:a.key,dir:a.direction})}),r=e.spans_truncated?s("p",{class:"muted"},`Showing the ${e.spans.length} spans with the largest total time.`):null;return s("div",{class:"table-scroll"},n,r)}function Gs(e){let{count:t,first:n,last:r}=e.steps,a=e.rank===null?`all ${e.ranks.length} ranks`:`rank ${e.rank}`;return t===0||n===null||r===null?`No completed steps (${a}).`:`${b(t)} steps, ${n}–${r} (${a}).`}var zn=5;function Xs(e,t,n){if(e.rows.length===0&&t.rows.length===0)return null;let r=(i,l)=>{let c=s("button",{type:"button",class:"link-button"},l);return c.addEventListener("click",()=>n(i,{})),c},a=e.rows.some(i=>i.device_self_ns>0),o=(i,l)=>s("ol",{class:"top-list","data-testid":l},...i.map(([c,d])=>s("li",{},s("span",{class:"top-name"},c),` ${d}`)));return de("Top operators and kernels",e.rows.length?s("div",{},s("h3",{},`Operators by ${a?"device":"host"} self time`),o(e.rows.map(i=>[i.name,f(a?i.device_self_ns:i.host_self_ns)]),"top-operators"),r("operators","All operators")):null,t.rows.length?s("div",{},s("h3",{},"Kernels by total time"),o(t.rows.map(i=>[i.name,f(i.total_ns)]),"top-kernels"),r("kernels","All kernels")):null)}function Ks(e,t){if(t)return[t.element];let n=e.ranks.some(a=>a.compute!==null),r=P({columns:n?[...Bn,...Ns]:Bn,rows:e.ranks,testId:"rank-table",rowTestId:"rank-row",rowName:a=>String(a.rank),rowClass:a=>a.rank===e.rank?"selected":void 0});return[de("Ranks",s("p",{class:"muted"},Gs(e)),s("div",{class:"table-scroll"},r)),de("Step time per rank",zs(e))]}function qs(e,t,n,r,a,o){let i=t.filter(l=>e.rank===null||l.ranks.length===0||l.ranks.includes(e.rank));return s("div",{class:"overview","data-testid":"overview"},Bs(e.warnings),Ie(i,o),de("Step-time breakdown",On(n)),...Ks(e,a),de("Spans",Us(e)),Os(e.ranks),r)}var Un={id:"overview",label:"Overview",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,onRanks:a,navigate:o}){let[i,l,c,d,u]=await Promise.all([Fn(e,t,n,r),Dn(e,n,r),In(e,t,n,r),Xe(e,t,"name",zn,n,r),Ne(e,t,zn,n,r)]);a(i.ranks);let m=Xs(d,u,o),h=t===null&&i.ranks.length>le?new He(e,o,r):null,g=qs(i,l.findings,c,m,h,o);return h?.load(),g}};var Vs=2e3,js=250;function Ys(e,t,n,r,a,o){let i=`./python?${L(e,{rank:t,sort:n,q:r===""?null:r,limit:Vs})}`;return S(i,a,o)}var Gn=e=>X(e===null?null:e*100),Xn={function:"function",calls:"calls",self_ns:"self_ns",self_share:"self_ns",self_per_call_ns:"self_per_call_ns",cumulative_ns:"cumulative_ns",cumulative_share:"cumulative_ns",cumulative_per_call_ns:"cumulative_per_call_ns"};function Js(e){let t=e.builtin?"built-in":`${e.filename}:${e.line}`;return s("span",{class:"python-function",title:e.function},s("span",{class:"python-name"},e.name)," ",s("span",{class:"muted"},t))}var Kn=[{key:"function",label:"function",numeric:!1,value:e=>e.function,render:Js},{key:"calls",label:"calls",title:"All calls; after a slash, the primitive (non-recursive) ones where they differ, as pstats prints ncalls",numeric:!0,value:e=>e.calls,format:e=>e.calls===e.primitive_calls?b(e.calls):`${b(e.calls)}/${b(e.primitive_calls)}`},{key:"self_ns",label:"self",title:"Time in the function itself (pstats tottime)",numeric:!0,value:e=>e.self_ns,format:e=>f(e.self_ns)},{key:"self_share",label:"self %",title:"Self time over the profiles' total time",numeric:!0,value:e=>e.self_share,format:e=>Gn(e.self_share)},{key:"self_per_call_ns",label:"self / call",title:"Self time over all calls",numeric:!0,value:e=>e.self_per_call_ns,format:e=>f(e.self_per_call_ns)},{key:"cumulative_ns",label:"cumulative",title:"Including what it called (pstats cumtime)",numeric:!0,value:e=>e.cumulative_ns,format:e=>f(e.cumulative_ns)},{key:"cumulative_share",label:"cumulative %",title:"Cumulative time over the profiles' total time",numeric:!0,value:e=>e.cumulative_share,format:e=>Gn(e.cumulative_share)},{key:"cumulative_per_call_ns",label:"cumulative / call",title:"Cumulative time over primitive calls",numeric:!0,value:e=>e.cumulative_per_call_ns,format:e=>f(e.cumulative_per_call_ns)}];function Zs(){let e=E(),t=e.get("pysort"),n=e.get("pydir");return Kn.some(r=>r.key===t)&&(n==="asc"||n==="desc")?{key:t,direction:n}:{key:"self_ns",direction:"desc"}}function Qs(e){return s("section",{class:"panel"},s("h2",{},"Profiles"),s("div",{class:"table-scroll"},P({columns:[{key:"rank",label:"rank",numeric:!0,value:t=>t.rank},{key:"file",label:"file",numeric:!1,value:t=>t.file},{key:"total_ns",label:"total time",numeric:!0,value:t=>t.total_ns,format:t=>f(t.total_ns)},{key:"calls",label:"calls",numeric:!0,value:t=>t.calls,format:t=>b(t.calls)},{key:"primitive_calls",label:"primitive calls",numeric:!0,value:t=>t.primitive_calls,format:t=>b(t.primitive_calls)}],rows:e,testId:"python-files",rowTestId:"python-file",rowName:t=>t.file})))}var qn={id:"python",label:"Python",usesRankSelect:!0,available:e=>e.sources.includes("pstats"),async show({run:e,rank:t,signal:n,onProgress:r,params:a}){let o=E(),i=s("input",{type:"search",class:"search-input",placeholder:"Filter functions","aria-label":"Filter functions","data-testid":"python-filter",value:String(a.q??o.get("pyq")??"")}),l=s("input",{type:"checkbox","data-testid":"python-builtins"});l.checked=o.get("pybuiltins")!=="0";let c=s("p",{class:"muted","data-testid":"python-caption"}),d=s("div",{class:"table-scroll"}),u=s("div"),m=Zs(),p=null,h=()=>{if(p===null)return;let x=l.checked?p.rows:p.rows.filter($=>!$.builtin),H=p.total_rows>p.rows.length?`the first ${b(p.rows.length)} of `:"",K=p.q?` match “${p.q}” of ${b(p.functions)}`:"";c.textContent=`${H}${b(p.total_rows)} functions${K}; ${f(p.total_ns)} profiled in ${b(p.files.length)} file(s), ${b(p.calls)} calls.`;let T=p.rows.length===0&&p.empty_reason!==null?p.empty_reason:p.files.length===0?"No cProfile/pstats files in this run (drop .prof files into the run directory or its plugins/tb_perf/imported/, or use `tb-perf ingest`).":"No function matches.";d.replaceChildren(x.length===0?s("p",{class:"muted","data-testid":"python-empty"},T):P({columns:Kn,rows:x,testId:"python-table",rowTestId:"python-row",rowName:$=>$.function,sort:m,onSortChange:$=>{let z=p!==null&&p.total_rows>p.rows.length&&Xn[$.key]!==p.sort;m=$,R({pysort:$.key,pydir:$.direction}),z&&v()}})),u.replaceChildren(Qs(p.files))},g=new AbortController,y=async x=>{let H=i.value.trim();p=await Ys(e,t,Xn[m.key]??"self_ns",H,x,r),h()},v=()=>{g.abort(),g=new AbortController,y(g.signal).catch(x=>{x instanceof DOMException&&x.name==="AbortError"||(c.textContent=`Could not load the function table: ${String(x)}`)})},w;return i.addEventListener("input",()=>{clearTimeout(w),R({pyq:i.value.trim()===""?null:i.value}),w=setTimeout(v,js)}),l.addEventListener("change",()=>{R({pybuiltins:l.checked?null:"0"}),h()}),await y(n),s("div",{class:"overview","data-testid":"python"},s("section",{class:"panel"},s("h2",{},"Python functions"),s("div",{class:"controls"},i,s("label",{},l," built-ins")),c,d),u)}};function eo(e,t,n){return S(`./tasks?${L(e)}`,t,n)}var ue=(e,t)=>W(e,t,n=>n[e]),to=[{key:"name",label:"operator",numeric:!1,value:e=>e.name},{key:"category",label:"kind",numeric:!1,value:e=>e.category},{key:"count",label:"count",numeric:!0,value:e=>e.count,format:e=>b(e.count)},ue("total_ns","total"),ue("mean_ns","mean"),ue("median_ns","median"),ue("std_ns","std"),ue("min_ns","min"),ue("max_ns","max")];function no(e){let t=e.invocations.map(n=>n.error!==void 0?`#${n.index}: ${n.error}`:`#${n.index} ${f(n.duration_ns??null)}`);return`${b(e.invocations_seen)} invocation(s) seen; traced: ${t.join(", ")||"none"}.`}function ro(e){return s("section",{class:"panel","data-testid":"task","data-name":`${e.task_type}/${e.rank}`},s("h2",{},`${e.task_type} — rank ${e.rank}`),s("p",{class:"muted"},no(e)," Operators matching ",s("code",{},e.ops_pattern),"."),e.operators.length===0?s("p",{class:"muted"},"No operator of the traced invocations matches the pattern."):s("div",{class:"table-scroll"},P({columns:to,rows:e.operators,testId:"task-operators",rowTestId:"task-operator",rowName:t=>`${t.category}/${t.name}`,sort:{key:"total_ns",direction:"desc"}})))}var Vn={id:"tasks",label:"Tasks",usesRankSelect:!1,available:e=>e.sources.includes("tasks"),async show({run:e,signal:t,onProgress:n}){let r=await eo(e,t,n);return s("div",{class:"overview","data-testid":"tasks"},r.warnings.length?s("section",{class:"warnings",role:"status"},s("ul",{},...r.warnings.map(a=>s("li",{},a)))):null,r.tasks.length===0?s("p",{class:"muted","data-testid":"tasks-empty"},r.empty_reason??"No profile_task summaries in this run (set PROFILE_TASK_TYPES; docs/CAPTURE.md)."):null,...r.tasks.map(ro))}};var pt={window:null,selected:null,enabledRanks:null,search:""};function mt(e){if(e===null||e.trim()==="")return null;let t=Number(e);return Number.isSafeInteger(t)?t:null}function jn(e,t){if(e===null)return null;if(e==="")return[];let n=e.split(t).map(mt);return n.every(r=>r!==null)?n:null}function Yn(){let e=E(),t=mt(e.get("start")),n=mt(e.get("end")),r=jn(e.get("sel"),":"),[a,o]=r?.length===2?r:[];return{window:t!==null&&n!==null&&n>t?{start:t,end:n}:null,selected:a!==void 0&&o!==void 0?{rank:a,id:o}:null,enabledRanks:jn(e.get("ranks"),","),search:e.get("q")??""}}function Q(e){let t={};e.window!==void 0&&(t.start=e.window&&String(Math.round(e.window.start)),t.end=e.window&&String(Math.round(e.window.end))),e.selected!==void 0&&(t.sel=e.selected&&`${e.selected.rank}:${e.selected.id}`),e.enabledRanks!==void 0&&(t.ranks=e.enabledRanks&&e.enabledRanks.join(",")),e.search!==void 0&&(t.q=e.search===""?null:e.search),R(t)}var ao=1e3;function Jn(e,t){return t!==null&&e.set("ranks",t.join(",")),e}function Zn(e,t,n){return S(`./timeline/meta?${new URLSearchParams({run:e})}`,t,n)}function Qn(e,t,n,r){let a=new URLSearchParams({run:e,start:String(t.start),end:String(t.end),width_px:String(t.widthPx)});return S(`./timeline/tiles?${Jn(a,t.ranks)}`,n,r)}function ht(e,t,n){let r=new URLSearchParams({run:e,rank:String(t.rank),id:String(t.id)});return S(`./timeline/event?${r}`,n)}function er(e,t,n,r){let a=new URLSearchParams({run:e,q:t,limit:String(ao)});return S(`./timeline/search?${Jn(a,n)}`,r)}function tr(e,t,n){return e.map(({rank:r})=>{let a=s("button",{type:"button",class:"rank-toggle","aria-pressed":String(t(r)),"data-testid":"timeline-rank-toggle","data-rank":r,title:`Show or hide rank ${r}`},`rank ${r}`);return a.addEventListener("click",()=>n(r)),a})}function so(e,t){let n=new Set;for(let r of e.split(",").map(a=>a.trim()).filter(a=>a!=="")){let a=/^(\d+)(?:\s*-\s*(\d+))?$/.exec(r);if(!a)return null;let o=Number(a[1]),i=a[2]===void 0?o:Number(a[2]);if(i<o)return null;for(let l=o;l<=i&&n.size<=t.size;l++)t.has(l)&&n.add(l)}return n.size?[...n].sort((r,a)=>r-a):null}function oo(e){let t=[];for(let n=0;n<e.length;){let r=n;for(;r+1<e.length&&e[r+1]===(e[r]??0)+1;)r++;t.push(n===r?String(e[n]):`${e[n]}-${e[r]}`),n=r+1}return t.join(", ")}function nr(e,t,n){let r=new Set(e.map(o=>o.rank)),a=s("input",{type:"text",value:oo(t),placeholder:"e.g. 0-7, 37",size:16,"data-testid":"timeline-rank-picker","aria-label":"Ranks to show"});return a.addEventListener("change",()=>{let o=so(a.value,r);a.setAttribute("aria-invalid",String(o===null)),a.title=o===null?`Ranks as a list such as "0-7, 37", of ranks 0–${Math.max(...r)}`:"",o&&n(o)}),s("label",{class:"rank-picker"},"Ranks ",a,s("span",{class:"muted"},` ${t.length} of ${e.length}`))}function rr(e,t){let n=s("select",{"data-testid":"timeline-step-select","aria-label":"Jump to step",disabled:e.length===0},s("option",{value:""},e.length===0?"No steps":"Jump to step…"),...e.map((r,a)=>s("option",{value:String(a)},`step ${r.step} (${f(r.end-r.start)})`)));return n.addEventListener("change",()=>{let r=e[Number(n.value)];n.value!==""&&r&&t(r)}),n}function io(e){return typeof e=="string"?e:JSON.stringify(e)}function Y(e,t){return s("tr",{},s("th",{scope:"row"},e),s("td",{},t))}function lo(e){let{event:t,peer:n}=e,r=t.flow;if(r===null)return null;let o=t.kind==="runtime"?"Launches":"Launched by",i=n?.name??`event ${r.id}`,l=s("button",{type:"button",class:"link-button","data-testid":"timeline-flow-link"},`${i} (rank ${r.rank}, ${e.laneLabel(r.lane)}) →`);return l.addEventListener("click",()=>e.onJump({rank:r.rank,id:r.id})),Y(o,l)}function ar(e){let{event:t,zero:n}=e,r=s("button",{type:"button",class:"link-button"},"Zoom to event");r.addEventListener("click",e.onZoom);let a=Object.entries(t.args);return s("div",{class:"details-body"},s("div",{class:"details-header"},s("h2",{class:"details-title",title:t.name},t.name),r),s("table",{class:"details-table"},s("tbody",{},Y("kind",t.kind),Y("rank",String(t.rank)),Y("lane",e.laneLabel(t.lane)),Y("step",t.step===null?"—":String(t.step)),Y("start",`${te(t.start-n)} from run start`),Y("duration",`${f(t.dur)} (${t.dur.toLocaleString("en-US")} ns)`),Y("event id",String(t.id)),lo(e))),a.length===0?null:s("table",{class:"details-table details-args","data-testid":"timeline-details-args"},s("caption",{},"Arguments"),s("tbody",{},...a.map(([o,i])=>Y(o,io(i))))))}function co(e){return e.kind==="counter"?36:Math.max(1,e.rows)*18+6}function sr(e,t,n){let r=[],a=new Map,o=0;for(let i of e.ranks){if(!t.has(i.rank))continue;let l=n.has(i.rank);if(r.push({type:"rank",rank:i,collapsed:l,top:o,height:24}),o+=24,!l)for(let c of i.lanes){let d={type:"lane",rank:i.rank,lane:c,top:o,height:co(c)};r.push(d),a.set(c.id,d),o+=d.height}}return{bands:r,lanes:a,height:o}}function or(e,t){return e.bands.find(n=>t>=n.top&&t<n.top+n.height)??null}function me(e,t){return e.top+3+t*18}function ir(e,t){let n=Math.floor((t-e.top-3)/18);return n>=0&&n<e.lane.rows?n:-1}function lr(e){return e.bands.flatMap(t=>t.type==="rank"&&!t.collapsed?[t.rank.rank]:[])}var uo={clock_sync:"The collectors measured this rank's clock offset to rank 0.",collectives:"Offset fitted so that the same collectives end together on every rank.",steps:"Offset chosen so that this rank's step boundaries line up with the other ranks'.",reference:"Rank 0's own clock: the reference the other ranks are aligned to.",none:"Not aligned: no clock sync, collectives or steps to align with."};function cr(e){let{method:t,uncertainty_ns:n}=e;return t==="reference"||t==="none"?t:`${t} ±${f(n)}`}function dr(e){let t=[uo[e.method]??e.method];if(e.method!=="reference"&&e.method!=="none"){if(t.push(`Offset added to this rank's clock: ${f(e.offset_ns)}.`,`Remaining error at most ±${f(e.uncertainty_ns)}.`),e.method==="collectives"||e.method==="steps"){let n=e.outliers?`, ${e.outliers} set aside as outliers`:"";t.push(`Fitted on ${e.pairs} matched pairs${n}.`)}e.drift_ns_per_s!==null&&t.push(`Clock drift corrected: ${f(e.drift_ns_per_s)} per s.`)}return t}var mo=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]],po=1e4;function ho(e){let t=10**Math.floor(Math.log10(e));return[1,2,5,10].map(n=>n*t).find(n=>n>=e)??10*t}function ur(e){return mo.find(([t])=>e>=t)??[1,"ns"]}function mr(e,t){return Math.max(0,Math.ceil(-Math.log10(e/t)-1e-9))}function pr(e,t,n,r,a){let o=Math.max(1,ho((t-e)/Math.max(1,n)*r)),i=Math.ceil((e-a)/o)*o,l=Math.abs(i)/o>po,c=o*100,d=l?Math.floor(i/c)*c:0,u=[];for(let w=i;a+w<t;w+=o)u.push(w);let m=Math.max(o,...u.map(w=>Math.abs(w-d))),[p,h]=ur(m),g=mr(o,p),y=u.map(w=>`${l?"+":""}${((w-d)/p).toFixed(g)} ${h}`),v=null;if(l){let[w,x]=ur(Math.abs(d)||1);v=`${(d/w).toFixed(mr(c,w))} ${x}`}return{ticks:u.map(w=>a+w),labels:y,baseLabel:v}}var qe="11px Roboto, 'Helvetica Neue', Arial, sans-serif",fo="500 12px Roboto, 'Helvetica Neue', Arial, sans-serif",bo=110,go=1,vo=28,yo=.45;function wo(e){let{window:t,width:n}=e,r=(n-220)/Math.max(1,t.end-t.start);return{x:a=>220+(a-t.start)*r,left:220,right:n}}var bt=0;function ko(e){if(bt===0){let t="aten::addmm_sgemm_128x64_nn cudaLaunchKernel ProfilerStep#12";bt=e.measureText(t).width/t.length}return bt}function gt(e,t,n){let r=Math.floor(n/ko(e));return r<2?null:t.length<=r?t:`${t.slice(0,r-1)}…`}function xo(e){let t=e.scrollTop,n=t+e.height-28;return e.layout.bands.filter(r=>r.type==="lane"&&r.top+r.height>t&&r.top<n)}function _o(e,t,n,r,a){let{theme:o,tile:i}=a,l=d=>{let u=r.x(t.start[d]??0),m=r.x(t.end[d]??0);if(m<r.left||u>r.right)return null;let p=Math.round(Math.max(u,r.left-1)),h=Math.round(Math.min(m,r.right+1));return[p,Math.max(h-p,go)]},c=(d,u)=>{e.rect(u[0],me(n,t.row[d]??0)+1,u[1],16)};for(let d=0;d<40;d+=1){let u=t.colorOffsets[d]??0,m=t.colorOffsets[d+1]??0;if(u!==m){e.fillStyle=o.boxes[d]??o.accent;for(let p of[!1,!0]){e.beginPath();for(let h=u;h<m;h+=1){let g=t.byColor[h]??0;if((t.count[g]??1)>1!==p)continue;let y=l(g);y&&c(g,y)}e.globalAlpha=p?yo:1,e.fill()}}}e.globalAlpha=1,e.fillStyle=o.boxText;for(let d=0;d<t.size;d+=1){let u=l(d);if(u===null||u[1]<vo)continue;let m=i?.names[t.name[d]??0]??"",p=t.count[d]??1,h=gt(e,p>1?`${b(p)} × ${m}`:m,u[1]-6);h!==null&&e.fillText(h,u[0]+3,me(n,t.row[d]??0)+18/2)}}function fr(e){let t=0;for(let n of e.value)t=Math.max(t,n);return t||1}function yt(e,t){return/bytes/i.test(e)?J(t):b(t)}function So(e,t,n,r,a){let{t:o,value:i}=t;if(o.length===0)return;let l=fr(t),c=n.top+n.height-2,d=m=>c-m/l*(n.height-8),u=Math.min(r.x(a.tile?.end??a.window.end),r.right);e.beginPath(),e.moveTo(r.x(o[0]??0),c);for(let m=0;m<o.length;m+=1){let p=Math.max(r.x(o[m]??0),r.left-1),h=Math.min(m+1<o.length?r.x(o[m+1]??0):u,r.right+1),g=d(i[m]??0);e.lineTo(p,g),e.lineTo(h,g)}e.lineTo(u,c),e.closePath(),e.globalAlpha=.3,e.fillStyle=a.theme.accent,e.fill(),e.globalAlpha=1,e.strokeStyle=a.theme.accent,e.lineWidth=1,e.stroke()}function To(e,t,n){let r=t.layout.lanes.get(e.lane);if(!r)return null;let a=Math.max(n.x(e.start),n.left-2),o=Math.min(n.x(e.end),n.right+2);return[a,me(r,e.row),Math.max(o-a,2)]}function hr(e,t,n,r,a){let o=To(t,n,r);o&&(e.lineWidth=a,e.strokeStyle=n.theme.text,e.strokeRect(o[0],o[1]+.5,o[2],17))}function Mo(e,t,n,r){let a=n.layout.lanes.get(t.from.lane),o=n.layout.lanes.get(t.to.lane);if(!a||!o)return;let i=r.x(t.from.start),l=me(a,t.from.row)+18/2,c=r.x(t.to.start),d=me(o,t.to.row)+18/2,u=Math.max(20,Math.abs(d-l)/2);e.strokeStyle=n.theme.accent,e.fillStyle=n.theme.accent,e.lineWidth=1.5,e.beginPath(),e.moveTo(i,l),e.bezierCurveTo(i,l+Math.sign(d-l||1)*u,c,d-Math.sign(d-l||1)*u,c,d),e.stroke();let m=Math.sign(d-l||1);e.beginPath(),e.moveTo(c,d),e.lineTo(c-4,d-m*8),e.lineTo(c+4,d-m*8),e.closePath(),e.fill();for(let[p,h]of[[i,l],[c,d]])e.beginPath(),e.arc(p,h,3,0,2*Math.PI),e.fill()}function Ro(e,t){let{theme:n,width:r}=t,a=t.scrollTop,o=a+t.height-28;e.fillStyle=n.surface,e.fillRect(0,a,220,o-a),e.textBaseline="middle";for(let i of t.layout.bands)if(!(i.top+i.height<=a||i.top>=o)){if(i.type==="rank"){e.fillStyle=n.grid,e.fillRect(0,i.top,r,24),e.font=fo,e.fillStyle=n.text;let l=`${i.collapsed?"▸":"▾"} rank ${i.rank.rank}`;e.fillText(l,8,i.top+24/2),e.font=qe,e.fillStyle=n.mutedText;let c=gt(e,cr(i.rank.alignment),140);c&&e.fillText(c,76,i.top+24/2)}else{e.font=qe,e.fillStyle=n.text;let l=gt(e,i.lane.label,196);l&&e.fillText(l,16,i.top+Math.min(i.height,24)/2);let c=t.tile?.counters.get(i.lane.id);if(c&&c.t.length>0){e.fillStyle=n.mutedText;let d=`max ${yt(i.lane.label,fr(c))}`;e.fillText(d,16,i.top+i.height-9)}}e.fillStyle=n.border,e.fillRect(0,i.top+i.height-1,r,1)}e.fillRect(219,a,1,o-a)}function $o(e,t,n,r){let{theme:a,width:o}=n;e.fillStyle=a.background,e.fillRect(0,0,o,28),e.fillStyle=a.border,e.fillRect(0,27,o,1),e.font=qe,e.textBaseline="middle",e.fillStyle=a.mutedText,e.fillText(t.baseLabel?`from ${t.baseLabel}`:"from run start",8,28/2),t.ticks.forEach((i,l)=>{let c=Math.round(r.x(i))+.5;e.fillRect(c,22,1,5),e.fillText(t.labels[l]??"",c+3,28/2-2)})}function br(e,t){let{width:n,height:r,theme:a,tile:o,window:i}=t,l=wo(t),c=pr(i.start,i.end,n-220,bo,t.zero);e.fillStyle=a.background,e.fillRect(0,0,n,r),e.font=qe,e.textBaseline="middle",e.save(),e.beginPath(),e.rect(0,28,n,r-28),e.clip(),e.translate(0,28-t.scrollTop),Ro(e,t),e.save(),e.beginPath(),e.rect(220,t.scrollTop,n-220,r),e.clip(),e.fillStyle=a.grid;for(let d of c.ticks)e.fillRect(Math.round(l.x(d)),t.scrollTop,1,r);for(let d of xo(t)){let u=o?.lanes.get(d.lane.id);u&&_o(e,u,d,l,t);let m=o?.counters.get(d.lane.id);m&&So(e,m,d,l,t)}t.hovered&&hr(e,t.hovered,t,l,1),t.selected&&hr(e,t.selected,t,l,2),t.flow&&Mo(e,t.flow,t,l),e.restore(),e.restore(),$o(e,c,t,l),t.emptyMessage!==null&&(e.fillStyle=a.mutedText,e.textAlign="center",e.fillText(t.emptyMessage,220+(n-220)/2,68),e.textAlign="start")}function gr(e,t){let n=new Uint32Array(t);for(let i=0;i<e.length;i+=1){let l=e[i]??0;n[l]=(n[l]??0)+1}let r=new Uint32Array(t+1);for(let i=0;i<t;i+=1)r[i+1]=(r[i]??0)+(n[i]??0);let a=r.slice(0,t),o=new Uint32Array(e.length);for(let i=0;i<e.length;i+=1){let l=e[i]??0;o[a[l]??0]=i,a[l]=(a[l]??0)+1}return[o,r]}function Eo(e,t,n){for(let r=0;r+1<t.length;r+=1){let a=e.subarray(t[r]??0,t[r+1]??0);for(let o=1;o<a.length;o+=1)if((n[a[o]??0]??0)<(n[a[o-1]??0]??0)){a.sort((i,l)=>(n[i]??0)-(n[l]??0));break}}}function Lo(e,t){let n=e.start.length,r=new Float64Array(n),a=new Float64Array(n),o=new Uint16Array(n),i=new Uint32Array(n),l=new Uint8Array(n),c=0;for(let h=0;h<n;h+=1){let g=e.start[h]??0;r[h]=g,a[h]=g+(e.dur[h]??0);let y=e.row[h]??0;o[h]=y,c=Math.max(c,y+1);let v=e.name[h]??0;i[h]=v,l[h]=t[v]??0}let[d,u]=gr(o,c);Eo(d,u,r);let[m,p]=gr(l,40);return{size:n,start:r,end:a,row:o,name:i,count:Float64Array.from(e.count),eventId:Float64Array.from(e.id),byColor:m,colorOffsets:p,byRow:d,rowOffsets:u}}function vr(e,t){let n=Uint8Array.from(e.names,Oe);return{start:e.start,end:e.end,nsPerPx:e.ns_per_px,ranksKey:t,names:e.names,lanes:new Map(e.lanes.map(r=>[r.id,Lo(r.boxes,n)])),counters:new Map(e.counters.map(r=>[r.id,r])),flows:e.flows}}function yr(e,t,n,r){let a=e.rowOffsets[t],o=e.rowOffsets[t+1];if(a===void 0||o===void 0)return-1;let i=a,l=o;for(;i<l;){let u=i+l>>1;(e.start[e.byRow[u]??0]??0)<=n+r?i=u+1:l=u}let c=-1,d=1/0;for(let u=i-1;u>=Math.max(a,i-2);u-=1){let m=e.byRow[u]??0,p=e.start[m]??0,h=e.end[m]??0,g=n<p?p-n:n>h?n-h:0;g<=r&&g<d&&(c=m,d=g)}return c}function wr(e,t,n){let{x:r,y:a,scrollTop:o,time:i,slack:l}=n;if(a<28)return null;let c=or(e,a-28+o);if(!c)return null;if(c.type==="rank")return{rankBand:c.rank.rank};let d=ir(c,a-28+o),u=t?.lanes.get(c.lane.id),m=u&&d>=0&&r>=220?yr(u,d,i,l):-1;return{band:c,box:m,row:d,time:i}}function Ao(e,t){let n=e?.counters.get(t.band.lane.id);if(!n)return null;let r=-1;for(let o=0;o<n.t.length&&(n.t[o]??0)<=t.time;o+=1)r=o;let a=n.value[r];return a===void 0?null:[t.band.lane.label,yt(t.band.lane.label,a)]}function kr(e,t,n,r,a){if(e===null)return null;if("rankBand"in e){let h=r?.ranks.find(v=>v.rank===e.rankBand),g=h&&a.has(h.rank)?"expand":"collapse";return{span:null,lines:h?[`rank ${h.rank} (click to ${g})`,...dr(h.alignment)]:null,cursor:"pointer"}}let o=e.band.lane;if(t<220)return{span:null,lines:[o.label,`rank ${e.band.rank} · ${o.kind}`],cursor:""};if(o.kind==="counter")return{span:null,lines:Ao(n,e),cursor:""};let i=n?.lanes.get(o.id);if(!i||e.box<0)return{span:null,lines:null,cursor:""};let l=i.start[e.box]??0,c=i.end[e.box]??0,d=i.count[e.box]??1,u=n?.names[i.name[e.box]??0]??"",m=r?.start??0,p=d>1?[`${b(d)} events`,`longest: ${u}`,`over ${f(c-l)} from ${te(l-m)}`,"click to zoom in"]:[u,`duration ${f(c-l)}`,`start ${te(l-m)}`];return{span:{lane:o.id,row:e.row,start:l,end:c},lines:p,cursor:""}}var Po=250,Ve=class{constructor(t){this.options=t;this.input=s("input",{type:"search",class:"search-input",placeholder:"Search events by name","aria-label":"Search events by name","data-testid":"timeline-search",value:t.initialText});let n=s("button",{type:"button","data-testid":"timeline-prev",title:"Previous match (Shift+Enter)"},"‹ Prev"),r=s("button",{type:"button","data-testid":"timeline-next",title:"Next match (Enter)"},"Next ›");n.addEventListener("click",()=>{this.step(-1)}),r.addEventListener("click",()=>{this.step(1)}),this.input.addEventListener("input",()=>{this.options.onTextChange(this.text()),clearTimeout(this.typingTimer),this.typingTimer=window.setTimeout(()=>{this.refresh()},Po)}),this.input.addEventListener("keydown",a=>{a.key==="Enter"&&(a.preventDefault(),this.step(a.shiftKey?-1:1))}),this.element=s("div",{class:"search",role:"search"},this.input,this.count,n,r)}options;element;input;count=s("span",{class:"search-count","data-testid":"timeline-search-count","aria-live":"polite"});result=null;resultText="";index=-1;inFlight=new AbortController;typingTimer=0;text(){return this.input.value.trim()}refresh(){clearTimeout(this.typingTimer),this.inFlight.abort(),this.inFlight=new AbortController;let t=this.inFlight.signal,n=this.text();return this.index=-1,n===""?(this.result=null,this.resultText="",this.showCount(),Promise.resolve()):(this.count.textContent="…",this.options.search(n,t).then(r=>{t.aborted||(this.result=r,this.resultText=n,this.showCount())},r=>{t.aborted||(this.result=null,this.count.textContent="search failed",this.count.title=r instanceof F?r.message:String(r))}))}async step(t){(this.result===null||this.resultText!==this.text())&&await this.refresh();let n=this.result?.matches??[];if(n.length===0)return;if(this.index===-1){let a=this.options.viewStart(),o=n.findIndex(l=>l.start>=a),i=o===-1?0:o;this.index=t===1?i:(i-1+n.length)%n.length}else this.index=(this.index+t+n.length)%n.length;this.showCount();let r=n[this.index];r&&this.options.onMatch(r)}showCount(){let t=this.result;this.count.title="",t===null?this.count.textContent="":t.total===0?this.count.textContent="no matches":this.index===-1?this.count.textContent=`${b(t.total)} ${t.total===1?"match":"matches"}`:this.count.textContent=`${b(this.index+1)} / ${b(t.total)}`,t!==null&&t.total>t.matches.length&&(this.count.title=`Next and previous visit the first ${b(t.matches.length)} matches in time order.`)}};function kt(e,t){return e!==null&&t!==null&&e.rank===t.rank&&e.id===t.id}function wt(e){return{lane:e.lane,row:e.row,start:e.start,end:e.start+e.dur}}function xr(e,t,n){if(!t||!kt(t,e))return{selected:null,flow:null};let r=wt(t);return n?t.kind==="runtime"?{selected:r,flow:{from:r,to:wt(n)}}:{selected:r,flow:{from:wt(n),to:r}}:{selected:r,flow:null}}var je=class{constructor(t,n){this.scene=t;this.onResize=n;let r=this.canvas.getContext("2d",{alpha:!1});if(r===null)throw new Error("This browser cannot draw on a canvas.");this.ctx=r,this.theme=ye(),this.scroller.append(this.canvas,this.spacer),this.scroller.addEventListener("scroll",()=>this.scheduleDraw());let a=new ResizeObserver(()=>this.resize());a.observe(this.scroller);let o=new MutationObserver(()=>{this.theme=ye(),this.scheduleDraw()});o.observe(document.documentElement,{attributes:!0,attributeFilter:["data-theme"]}),this.observers.push(a,o)}scene;onResize;canvas=s("canvas",{class:"timeline-canvas",tabindex:0,"data-testid":"timeline-canvas","aria-label":"Timeline: W/S or the wheel zoom, A/D or dragging pan, click selects"});scroller=s("div",{class:"timeline-scroller"});spacer=s("div",{class:"timeline-spacer"});tooltip=s("div",{class:"chart-tooltip timeline-tooltip",hidden:!0});status=s("div",{class:"timeline-status","data-testid":"timeline-status",hidden:!0});element=s("div",{class:"timeline-stage"},this.scroller,this.tooltip,this.status);ctx;theme;observers=[];size={width:0,height:0,dpr:1};lanesHeight=0;drawPending=!1;get width(){return this.size.width}get scrollTop(){return this.scroller.scrollTop}setLanesHeight(t){this.lanesHeight=t,this.spacer.style.height=`${Math.max(0,28+t-this.size.height)}px`}scheduleDraw(){this.drawPending||(this.drawPending=!0,requestAnimationFrame(()=>this.drawNow()))}showTooltip(t,n,r){if(t===null){this.tooltip.hidden=!0;return}let[a,...o]=t;this.tooltip.replaceChildren(s("div",{class:"tooltip-title"},a??""),...o.map(l=>s("div",{},l))),this.tooltip.hidden=!1;let i=n+16+this.tooltip.offsetWidth>this.size.width;this.tooltip.style.left=`${i?n-12-this.tooltip.offsetWidth:n+16}px`,this.tooltip.style.top=`${r+16}px`}showProgress(t){let n=Math.round(Math.min(1,Math.max(0,t.fraction))*100);this.status.removeAttribute("role"),this.status.textContent=`Reading run files… ${n} % (${J(t.done_bytes)} of ${J(t.total_bytes)})`,this.status.hidden=!1}showError(t){let n=t instanceof F?`${t.message} (${t.code})`:String(t);this.status.setAttribute("role","alert"),this.status.textContent=`Could not load this part of the timeline: ${n}`,this.status.hidden=!1}hideStatus(){this.status.hidden=!0}dispose(){for(let t of this.observers)t.disconnect()}resize(){let t=this.scroller.clientWidth,n=this.scroller.clientHeight,r=window.devicePixelRatio||1;t===this.size.width&&n===this.size.height&&r===this.size.dpr||(this.size={width:t,height:n,dpr:r},!(t===0||n===0)&&(this.canvas.style.width=`${t}px`,this.canvas.style.height=`${n}px`,this.canvas.width=Math.round(t*r),this.canvas.height=Math.round(n*r),this.setLanesHeight(this.lanesHeight),this.onResize(),this.drawNow()))}drawNow(){this.drawPending=!1;let{width:t,height:n,dpr:r}=this.size;if(t===0||n===0)return;let a=this.scene();a!==null&&(this.ctx.setTransform(r,0,0,r,0,0),br(this.ctx,{width:t,height:n,scrollTop:this.scroller.scrollTop,theme:this.theme,...a}))}};var Co=60,_r=8192,Ho=1.5;function Tr(e){return e===null?"all":e.join(",")}function Sr(e,t){if(e===null||e.ranksKey!==Tr(t.ranks))return!1;let{window:n,extent:r}=t,a=(n.end-n.start)/t.widthPx;return e.start<=Math.max(n.start,r.start)&&e.end>=Math.min(n.end,r.end)&&e.nsPerPx<=a*Ho}function No(e){let{window:t,extent:n}=e,r=t.end-t.start,a=r/e.widthPx,o=Math.max(0,Math.min(r/2,(_r*a-r)/2)),i=Math.floor(Math.max(n.start,t.start-o)),l=Math.ceil(Math.min(n.end,t.end+o)),c=Math.min(_r,Math.max(1,Math.round((l-i)/a)));return{start:i,end:Math.max(l,i+1),widthPx:c,ranks:e.ranks,nsPerPx:(l-i)/c,ranksKey:Tr(e.ranks)}}var Ye=class{constructor(t,n){this.run=t;this.listener=n}run;listener;timer=0;inFlight=null;want(t,n){clearTimeout(this.timer),!(Sr(n,t)||Sr(this.inFlight?.query??null,t))&&(this.timer=window.setTimeout(()=>this.fetch(t),Co))}refetch(t){clearTimeout(this.timer),this.fetch(t)}cancel(){clearTimeout(this.timer),this.inFlight?.controller.abort(),this.inFlight=null}fetch(t){this.cancel();let n=No(t),r=new AbortController;this.inFlight={query:n,controller:r},Qn(this.run,n,r.signal,this.listener.onProgress).then(a=>{r.signal.aborted||(this.inFlight=null,this.listener.onTile(vr(a,n.ranksKey)))},a=>{r.signal.aborted||(this.inFlight=null,this.listener.onError(a))})}};var Do=200,Io=2,Oo=1,Je=class{constructor(t,n){this.run=t;this.window=n.window,this.selected=n.selected,this.enabledRanks=n.enabledRanks&&new Set(n.enabledRanks),this.selected&&(this.canvas.dataset.selected=`${this.selected.rank}:${this.selected.id}`),this.search=new Ve({initialText:n.search,search:(a,o)=>er(this.run,a,this.enabledRankList(),o),onMatch:a=>this.showMatch(a),onTextChange:a=>Q({search:a}),viewStart:()=>this.window?.start??0}),this.tiles=new Ye(t,{onTile:a=>{this.tile=a,this.stage.hideStatus(),this.scheduleDraw()},onProgress:a=>this.stage.showProgress(a),onError:a=>this.stage.showError(a)});let r=s("button",{type:"button","data-testid":"timeline-reset"},"Reset zoom");r.addEventListener("click",()=>this.setWindow(this.bounds)),this.element=s("div",{class:"timeline","data-testid":"timeline","data-run":t},s("div",{class:"timeline-toolbar"},this.rankToggleGroup,this.stepPicker,r,this.search.element,s("span",{class:"muted hint"},"W/S or wheel: zoom · A/D or drag: pan · Esc: deselect")),this.stage.element,this.details),ze(this.canvas,{zoomAt:(a,o)=>this.zoomAt(a,o),panBy:a=>this.panBy(a),timeAreaWidth:()=>this.timeAreaWidth(),clickAt:(a,o)=>this.clickAt(a,o),hoverAt:(a,o)=>this.hoverAt(a,o),hoverEnd:()=>this.setHover(null,null),escape:()=>this.select(null,!1)},{timeAreaLeft:220,keys:!0})}run;element;loaded=!1;meta=null;layout={bands:[],lanes:new Map,height:0};bounds={start:0,end:1};window;enabledRanks;collapsedRanks=new Set;tile=null;selected;selectedEvent=null;flowPeer=null;hovered=null;selectionRequest=new AbortController;stage=new je(()=>this.sceneParts(),()=>this.requestTiles(!1));canvas=this.stage.canvas;details=s("section",{class:"timeline-details","data-testid":"timeline-details","aria-live":"polite"},s("p",{class:"muted"},"Click an event to see its details."));rankToggleGroup=s("div",{class:"rank-toggles",role:"group","aria-label":"Ranks"});stepPicker=s("label",{class:"step-picker"});search;tiles;hashTimer=0;async load(t,n,r=[]){let a=await Zn(this.run,t,n);if(!t.aborted){if(this.enabledRanks===null&&a.ranks.length>le){let o=a.ranks.map(c=>c.rank),i=r.filter(c=>o.includes(c)),l=i.length>0?i:await Zt(this.run,o,t);if(t.aborted)return;this.enabledRanks=new Set(l),Q({enabledRanks:this.enabledRankList()})}this.meta=a,this.loaded=!0,this.bounds=bn(a.start,a.end),this.relayout(),this.setWindow(this.window??this.bounds),this.stepPicker.replaceChildren(rr(a.steps,o=>this.setWindow(ne(o.start,o.end,.02,this.bounds)))),this.tile=null,this.tiles.cancel(),this.requestTiles(!0),this.selected&&this.select(this.selected,!1),this.search.refresh()}}showStep(t){let n=this.meta?.steps.find(r=>r.step===t);n&&this.setWindow(ne(n.start,n.end,.02,this.bounds))}showRanks(t){let n=new Set(this.meta?.ranks.map(a=>a.rank)??[]),r=t.filter(a=>n.has(a));r.length>0&&this.setEnabledRanks(new Set(r))}revealRank(t){if(!this.meta?.ranks.some(r=>r.rank===t))return;let n=this.collapsedRanks.delete(t);this.enabledRanks!==null&&!this.enabledRanks.has(t)?this.setEnabledRanks(new Set([...this.enabledRanks,t])):n&&(this.relayout(),this.requestTiles(!1))}dispose(){this.tiles.cancel(),this.selectionRequest.abort(),this.stage.dispose()}enabledRankList(){return this.enabledRanks&&[...this.enabledRanks].sort((t,n)=>t-n)}isRankEnabled(t){return this.enabledRanks===null||this.enabledRanks.has(t)}relayout(){let t=this.meta;if(!t)return;let n=new Set(t.ranks.map(o=>o.rank).filter(o=>this.isRankEnabled(o)));this.layout=sr(t,n,this.collapsedRanks),this.canvas.dataset.ranks=[...n].sort((o,i)=>o-i).join(",");let r=t.ranks.length>le,a=r?t.ranks.filter(o=>n.has(o.rank)):t.ranks;this.rankToggleGroup.replaceChildren(...r?[nr(t.ranks,[...n].sort((o,i)=>o-i),o=>this.setEnabledRanks(new Set(o)))]:[],...tr(a,o=>this.isRankEnabled(o),o=>this.toggleRank(o))),this.stage.setLanesHeight(this.layout.height),this.scheduleDraw()}toggleRank(t){let n=this.meta?.ranks.map(a=>a.rank)??[],r=this.enabledRanks??new Set(n);r.has(t)?r.delete(t):r.add(t),this.setEnabledRanks(r)}setEnabledRanks(t){let n=this.meta?.ranks.map(r=>r.rank)??[];this.enabledRanks=n.every(r=>t.has(r))?null:t,Q({enabledRanks:this.enabledRankList()}),this.relayout(),this.requestTiles(!1),this.search.refresh()}toggleCollapsed(t){this.collapsedRanks.has(t)?this.collapsedRanks.delete(t):this.collapsedRanks.add(t),this.relayout(),this.requestTiles(!1)}setWindow(t){this.window=Z(t,this.bounds),this.canvas.dataset.start=String(Math.round(this.window.start)),this.canvas.dataset.end=String(Math.round(this.window.end)),this.scheduleDraw(),this.requestTiles(!1),clearTimeout(this.hashTimer),this.hashTimer=window.setTimeout(()=>Q({window:this.window}),Do)}requestTiles(t){let n=this.meta,r=this.window,a=this.timeAreaWidth();if(!n||!r||a<=0)return;let o=lr(this.layout);if(o.length===0)return;let i=o.length===n.ranks.length,l={window:r,widthPx:a,ranks:i?null:o,extent:{start:n.start,end:n.end}};t?this.tiles.refetch(l):this.tiles.want(l,this.tile)}timeAreaWidth(){return Math.max(0,this.stage.width-220)}timeAt(t){return we(this.window??this.bounds,t,220,this.timeAreaWidth())}nsPerPx(){return ke(this.window??this.bounds,this.timeAreaWidth())}zoomAt(t,n){let r=this.window;r&&this.navigateTo(We(r,t,220,this.timeAreaWidth(),n,this.bounds))}panBy(t){this.window&&this.navigateTo(Be(this.window,t,this.timeAreaWidth(),this.bounds))}navigateTo(t){(t.start!==this.window?.start||t.end!==this.window.end)&&this.setWindow(t)}select(t,n){this.selectionRequest.abort(),this.selectionRequest=new AbortController;let r=this.selectionRequest.signal;if(kt(t,this.selectedEvent)||(this.selectedEvent=null,this.flowPeer=null),this.selected=t,t?this.canvas.dataset.selected=`${t.rank}:${t.id}`:delete this.canvas.dataset.selected,Q({selected:t}),this.scheduleDraw(),t===null){this.details.replaceChildren(s("p",{class:"muted"},"Click an event to see its details."));return}this.loadSelection(t,n,r)}async loadSelection(t,n,r){try{let a=await ht(this.run,t,r);if(r.aborted)return;if(this.selectedEvent=a,n&&this.window&&this.setWindow(fn(this.window,a.start,a.start+a.dur,this.bounds)),this.showDetails(),this.scheduleDraw(),a.flow){if(this.flowPeer=await ht(this.run,a.flow,r),r.aborted)return;this.showDetails(),this.scheduleDraw()}}catch(a){if(r.aborted)return;this.details.replaceChildren(s("p",{class:"error",role:"alert"},`Could not load the event: ${a instanceof F?a.message:String(a)}`))}}showDetails(){let t=this.selectedEvent;t&&this.details.replaceChildren(ar({event:t,peer:this.flowPeer,zero:this.meta?.start??0,laneLabel:n=>this.laneLabel(n),onJump:n=>{this.revealRank(n.rank),this.select(n,!0)},onZoom:()=>this.setWindow(ne(t.start,t.start+t.dur,.5,this.bounds))}))}laneLabel(t){for(let n of this.meta?.ranks??[]){let r=n.lanes.find(a=>a.id===t);if(r)return r.label}return t}showMatch(t){this.revealRank(t.rank),this.setWindow(ne(t.start,t.start+t.dur,Oo,this.bounds)),this.select({rank:t.rank,id:t.id},!1)}hitTest(t,n){let r={x:t,y:n,scrollTop:this.stage.scrollTop,time:this.timeAt(t),slack:Io*this.nsPerPx()};return wr(this.layout,this.tile,r)}clickAt(t,n){this.canvas.focus();let r=this.hitTest(t,n);if(r&&"rankBand"in r){this.toggleCollapsed(r.rankBand);return}let a=r&&this.tile?.lanes.get(r.band.lane.id);if(!r||!a||r.box<0){t>=220&&this.select(null,!1);return}let o=a.count[r.box]??1,i=a.start[r.box]??0,l=a.end[r.box]??0;o>1?this.setWindow(ne(i,l,.1,this.bounds)):this.select({rank:r.band.rank,id:a.eventId[r.box]??-1},!1)}hoverAt(t,n){let r=kr(this.hitTest(t,n),t,this.tile,this.meta,this.collapsedRanks);if(r===null)return this.setHover(null,null);this.canvas.style.cursor=r.cursor,this.setHover(r.span,r.lines,t,n)}setHover(t,n,r=0,a=0){this.hovered=t,this.scheduleDraw(),this.stage.showTooltip(n,r,a)}scheduleDraw(){this.stage.scheduleDraw()}sceneParts(){return this.window?{window:this.window,zero:this.meta?.start??0,layout:this.layout,tile:this.tile,hovered:this.hovered,...xr(this.selected,this.selectedEvent,this.flowPeer),emptyMessage:this.emptyMessage()}:null}emptyMessage(){return this.layout.bands.length>0?null:this.meta?.ranks.length?"Every rank is hidden: turn one on with the rank buttons above.":"This run has no timeline events: no MyTimer spans and no profiler traces yet."}};var Se=null,xt=!1;function Fo(e){if(Se?.run===e)return Se;Se?.dispose();let t=xt?pt:Yn();return xt&&Q(pt),xt=!0,Se=new Je(e,t),Se}var Mr={id:"timeline",label:"Timeline",usesRankSelect:!1,async show({run:e,signal:t,refresh:n,onProgress:r,params:a}){let o=Fo(e),i=String(a.ranks??"").split(",").filter(u=>u.trim()!=="").map(Number),l=i.every(Number.isInteger)?i:[];(n||!o.loaded)&&await o.load(t,r,l);let c=Number(a.rank);l.length>0?o.showRanks(l):a.rank!=null&&Number.isInteger(c)&&o.revealRank(c);let d=Number(a.step);return a.step!=null&&Number.isInteger(d)&&o.showStep(d),o.element}};var ee=[Un,Mr,Nn,ln,Hn,qn,Vn,_n,an,Ot];var _t="";function St(e){let t=ee[0];if(t===void 0)throw new Error("no dashboards registered");return ee.find(n=>n.id===e)??t}function Wo(e){let t=Math.round(Math.min(1,Math.max(0,e.fraction))*100),n=s("div",{class:"progress-bar"});return n.style.width=`${t}%`,s("div",{class:"progress","data-testid":"progress"},s("div",{class:"progress-track",role:"progressbar","aria-valuemin":0,"aria-valuemax":100,"aria-valuenow":t},n),s("p",{},`Reading run files… ${t} % (${J(e.done_bytes)} of ${J(e.total_bytes)})`))}function Rr(e,t){let n=t instanceof F?`${t.message} (${t.code})`:String(t);return s("div",{class:"error","data-testid":"error",role:"alert"},s("strong",{},e),s("p",{},n))}function Bo(){return s("div",{class:"empty","data-testid":"empty"},s("h2",{},"No runs yet"),s("p",{},"This logdir holds no tb-perf runs. See the README quick start to record one with the collectors (or point TensorBoard at a torch.profiler trace directory), then press TensorBoard's reload button."))}function $r(e){return e instanceof DOMException&&e.name==="AbortError"}var Ze=class{runs=[];run;rank;dashboard;inFlight=new AbortController;runSelect=s("select",{"data-testid":"run-select","aria-label":"Run"});runStatus=s("span",{class:"badge","data-testid":"run-status"});jobSelect=s("select",{"data-testid":"job-select","aria-label":"Job"});jobLabel=s("label",{hidden:!0},"Job ",this.jobSelect);rankSelect=s("select",{"data-testid":"rank-select","aria-label":"Rank"});rankLabel=s("label",{},"Rank ",this.rankSelect);tabs=ee.map(t=>s("button",{type:"button",role:"tab",class:"tab","data-testid":`tab-${t.id}`},t.label));toolbar=s("header",{class:"toolbar",hidden:!0},s("nav",{class:"tabs",role:"tablist","aria-label":"Dashboards"},...this.tabs),s("label",{},"Run ",this.runSelect),this.jobLabel,this.runStatus,this.rankLabel);content=s("main",{class:"content"},s("p",{class:"muted"},"Loading runs…"));constructor(t){let n=E();this.run=n.get("run");let r=Number.parseInt(n.get("rank")??"",10);this.rank=Number.isInteger(r)?r:null,this.dashboard=St(n.get("dashboard")),this.showActiveTab(),this.tabs.forEach((a,o)=>a.addEventListener("click",()=>{let i=ee[o];i===void 0||i===this.dashboard||this.open(i,{})})),this.runSelect.addEventListener("change",()=>{this.run=this.runSelect.value,this.showSelectedRun(),this.loadDashboard(this.restart(),!0)}),this.jobSelect.addEventListener("change",()=>{this.run=this.jobSelect.value,this.showSelectedRun(),this.loadDashboard(this.restart(),!0)}),this.rankSelect.addEventListener("change",()=>{this.rank=this.rankSelect.value===_t?null:Number(this.rankSelect.value),this.saveSelection(),this.loadDashboard(this.restart(),!0)}),t.replaceChildren(s("div",{class:"app"},this.toolbar,this.content))}async reload(){let t=this.restart();try{this.runs=await $e(t)}catch(n){$r(n)||this.content.replaceChildren(Rr("Could not list the runs",n));return}if(this.toolbar.hidden=this.runs.length===0,this.runs.length===0){this.run=null,this.content.replaceChildren(Bo());return}this.runSelect.replaceChildren(...this.runs.filter(n=>n.name===n.directory).map(n=>s("option",{value:n.name},`${n.name} (${n.status})`))),this.runs.some(n=>n.name===this.run)||(this.run=this.runs[0]?.name??null),this.showSelectedRun(),await this.loadDashboard(t,!0)}restart(){return this.inFlight.abort(),this.inFlight=new AbortController,this.inFlight.signal}open(t,n){this.dashboard=t;let r=Number(n.rank);t.usesRankSelect&&n.rank!=null&&Number.isInteger(r)&&(this.rank=r,this.rankSelect.value=String(r)),this.showActiveTab(),this.saveSelection(),this.loadDashboard(this.restart(),!1,n)}showActiveTab(){this.tabs.forEach((t,n)=>{let r=ee[n]===this.dashboard;t.setAttribute("aria-selected",String(r)),t.classList.toggle("active",r)}),this.rankLabel.hidden=!this.dashboard.usesRankSelect}selectedRun(){return this.runs.find(t=>t.name===this.run)}showSelectedRun(){let t=this.selectedRun();t&&(this.tabs.forEach((n,r)=>{n.hidden=!(ee[r]?.available?.(t)??!0)}),(this.dashboard.available?.(t)??!0)||(this.dashboard=St(null),this.showActiveTab()),this.runSelect.value=t.directory,this.jobLabel.hidden=t.jobs.length<2,this.jobSelect.replaceChildren(...t.jobs.map((n,r)=>s("option",{value:n.run},`${n.id}${r===0?" (newest)":""} · ${n.ranks.length} rank(s)`))),this.jobSelect.value=t.name,this.runStatus.textContent=t.status,this.runStatus.className=`badge status-${t.status}`,this.rank!==null&&!t.ranks.includes(this.rank)&&(this.rank=null),this.fillRankSelect(t.ranks.map(n=>({rank:n}))),this.saveSelection())}fillRankSelect(t){this.rankSelect.replaceChildren(s("option",{value:_t},"All ranks"),...t.map(n=>s("option",{value:String(n.rank)},n.host?`rank ${n.rank} · ${n.host}`:`rank ${n.rank}`))),this.rankSelect.value=this.rank===null?_t:String(this.rank)}saveSelection(){let t=this.dashboard===ee[0];R({run:this.run,rank:this.rank===null?null:String(this.rank),dashboard:t?null:this.dashboard.id})}async loadDashboard(t,n,r={}){let a=this.run;if(a!==null){this.content.setAttribute("aria-busy","true");try{let o=await this.dashboard.show({run:a,rank:this.rank,signal:t,refresh:n,onProgress:i=>this.content.replaceChildren(Wo(i)),onRanks:i=>this.fillRankSelect(i),navigate:(i,l)=>this.open(St(i),l),params:r});t.aborted||this.content.replaceChildren(o)}catch(o){$r(o)||this.content.replaceChildren(Rr(`Could not load run “${a}”`,o))}finally{t.aborted||this.content.removeAttribute("aria-busy")}}}};var zo="experimental.DataReloaded";function Uo(e){if(typeof e!="string")return null;try{let t=JSON.parse(e);return typeof t=="object"&&t!==null&&"type"in t&&"id"in t?t:null}catch{return null}}function Er(e){if(window.parent===window)return;let t=new MessageChannel;t.port1.onmessage=n=>{let r=Uo(n.data);if(r===null||r.isReply)return;let a={type:r.type,id:r.id,payload:null,error:null,isReply:!0};t.port1.postMessage(JSON.stringify(a)),r.type===zo&&e()};try{window.parent.postMessage("experimental.bootstrap","*",[t.port2])}catch{}}var Lr=`/* Colours follow TensorBoard: white / #303030 backgrounds, orange accent. theme.ts sets data-theme. */
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
/* With Nsight Compute's columns the table scrolls sideways; kernel names keep a readable width. */
.data-table[data-testid="kernel-table"] td[data-column="name"] {
  min-width: 32ch;
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

`;var Ar=`/* Compare tab */
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

`;var Pr=`/* Memory and GPU tabs */
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

`;var Cr=`/* Modules tab: tree table, icicle, per-step detail */
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

`;var Hr=`/* Findings */
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

`;var Nr=`/* Many-rank Overview: rank × step heatmap */
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
`;var Dr=`/* Timeline: fills the iframe below the toolbar; the details panel takes what the lanes leave. */
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

`;var Ir=[Lr,Dr,Hr,Cr,Pr,Ar,Nr].join("");function $u(){document.head.append(s("style",{},Ir)),en();let e=new Ze(document.body);Er(()=>{e.reload()}),e.reload()}export{$u as render};

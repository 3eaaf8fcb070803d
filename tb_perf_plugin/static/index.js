var W=class extends Error{constructor(n,r){super(r);this.code=n}code};function He(e){return typeof e=="object"&&e!==null}function ja(e){return He(e)&&He(e.progress)?e.progress:null}function Ya(e,t){let n=He(t)?t.error:void 0;return He(n)&&typeof n.message=="string"?new W(String(n.code??"error"),n.message):new W("http_error",`The server answered HTTP ${e}.`)}function Za(e,t){return new Promise((n,r)=>{let a=setTimeout(n,e);t.addEventListener("abort",()=>{clearTimeout(a),r(t.reason)},{once:!0})})}async function Ja(e,t){try{return await fetch(e,{signal:t,headers:{Accept:"application/json"}})}catch(n){throw t.aborted?n:new W("unreachable","The TensorBoard server did not answer. Is it still running?")}}async function M(e,t,n){for(;;){let r=await Ja(e,t),a=await r.json().catch(()=>null),s=r.status===202?ja(a):null;if(s){n?.(s),await Za(500,t);continue}if(!r.ok)throw Ya(r.status,a);if(a===null)throw new W("bad_response","The server sent a response that is not JSON.");return a}}function P(e,t={}){let n=new URLSearchParams({run:e});for(let[r,a]of Object.entries(t))a!==null&&n.set(r,String(a));return n.toString()}function De(e){return M("./runs",e)}function Jt(e){return M("./notices",e)}function Qt(e,t){for(let[n,r]of Object.entries(t))r===void 0||r===!1||e.setAttribute(n,r===!0?"":String(r))}function o(e,t={},...n){let r=document.createElement(e);Qt(r,t);for(let a of n)a!=null&&a!==!1&&r.append(a);return r}var Qa="http://www.w3.org/2000/svg";function R(e,t={},...n){let r=document.createElementNS(Qa,e);Qt(r,t);for(let a of n)a!=null&&a!==!1&&r.append(a);return r}var eo=new Intl.NumberFormat("en-US");function ye(e){let t=Math.abs(e),n=t>=100?0:t>=10?1:2;return new Intl.NumberFormat("en-US",{minimumFractionDigits:n,maximumFractionDigits:n}).format(e)}function g(e){if(e==null||!Number.isFinite(e))return"—";let t=Math.abs(e);return t>=1e9?`${ye(e/1e9)} s`:t>=1e6?`${ye(e/1e6)} ms`:t>=1e3?`${ye(e/1e3)} µs`:`${Math.round(e)} ns`}var en=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]];function de(e){let t=Math.max(0,...e.map(Math.abs)),[n,r]=en.find(([i])=>t>=i)??[1,"ns"],a=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/n:1,s=Math.min(3,Math.max(0,-Math.floor(Math.log10(a))));return i=>`${(i/n).toFixed(s)} ${r}`}function y(e){return e==null?"—":eo.format(e)}function F(e){return e==null||!Number.isFinite(e)?"—":e>0&&e<.05?"<0.1 %":`${e.toFixed(1)} %`}function ne(e){let t=["B","KB","MB","GB","TB"],n=e,r=0;for(;n>=1e3&&r<t.length-1;)n/=1e3,r+=1;return r===0?`${e} B`:`${ye(n)} ${t[r]}`}function ie(e){let[t,n]=en.find(([a])=>Math.abs(e)>=a)??[1,"ns"],r=Math.round(Math.log10(t));return`${(e/t).toFixed(r)} ${n}`}var tn=[[1024**4,"TiB"],[1024**3,"GiB"],[1024**2,"MiB"],[1024,"KiB"],[1,"B"]];function T(e){if(e==null||!Number.isFinite(e))return"—";let[t,n]=tn.find(([r])=>Math.abs(e)>=r)??[1,"B"];return t===1?`${Math.round(e)} B`:`${ye(e/t)} ${n}`}function ue(e){let t=Math.max(0,...e.map(Math.abs)),[n,r]=tn.find(([i])=>t>=i)??[1,"B"],a=e.length>1?Math.abs((e[1]??0)-(e[0]??0))/n:1,s=Math.min(3,Math.max(0,-Math.floor(Math.log10(a))));return i=>`${(i/n).toFixed(s)} ${r}`}function me(e){return t=>{let n=t.length>1?Math.abs((t[1]??0)-(t[0]??0)):1,r=Math.min(3,Math.max(0,-Math.floor(Math.log10(n||1))));return a=>`${a.toFixed(r)}${e}`}}function N(){return new URLSearchParams(location.hash.slice(1))}function L(e){let t=N();for(let[r,a]of Object.entries(e))a===null?t.delete(r):t.set(r,a);let n=new URL(location.href);n.hash=t.toString(),history.replaceState(history.state,"",n.href)}function nn(e,t,n,r){let a=new URLSearchParams({baseline:e,candidate:t});return M(`./compare?${a}`,n,r)}function rn(e,t){let n=e.find(a=>a.name===t);if(n===void 0)return null;let r=null;for(let a of e)a.name===t||a.ranks.length!==n.ranks.length||a.updated_ns>=n.updated_ns||(r===null||a.updated_ns>r.updated_ns||a.updated_ns===r.updated_ns&&a.name<r.name)&&(r=a);return r===null?null:r.name}function an(e,t,n){if(!Number.isFinite(n)||n<=0)return{page:0,pages:1,first:0,end:e};let r=Math.max(1,Math.ceil(e/n)),a=Math.min(Math.max(0,Math.trunc(t)),r-1),s=Math.min(a*n,e);return{page:a,pages:r,first:s,end:Math.min(s+n,e)}}function on(e,t,n){return t===0?"no rows":`rows ${n(e.first+1)}–${n(e.end)} of ${n(t)}`}var X=50;function H(e,t,n,r){return{key:e,label:t,numeric:!0,value:n,format:a=>g(n(a)),...r===void 0?{}:{title:r}}}var to={asc:"ascending",desc:"descending"},no={asc:" ▲",desc:" ▼"},ro={asc:"desc",desc:"asc"};function ao(e,t){return typeof e=="number"&&typeof t=="number"?e-t:String(e).localeCompare(String(t))}function oo(e,t,n){let r=n==="asc"?1:-1;return[...e].sort((a,s)=>{let i=t.value(a),l=t.value(s);return i===null||l===null?i===l?0:i===null?1:-1:r*ao(i,l)})}function so(e){return e.numeric?"desc":"asc"}function $(e){let{columns:t,testId:n}=e,r=e.pageSize??Number.POSITIVE_INFINITY,a=e.sort,s=0,i=o("table",{class:"data-table","data-testid":n}),l=o("tr"),c=o("tbody"),u=io(n,p=>{s+=p,m()});e.rows.length>r&&i.append(u.caption),i.append(o("thead",{},l),c);let d=()=>{l.replaceChildren(...t.map(p=>{let b=a?.key===p.key?a.direction:void 0,v=o("th",{class:p.numeric?"numeric":void 0,title:p.title,"aria-sort":b&&to[b],"data-column":p.key});if(!a)return v.append(p.label),v;let f=b?no[b]:"",h=o("button",{type:"button",class:"sort-button"},p.label+f);return h.addEventListener("click",()=>{let k=b===void 0?so(p):ro[b];a={key:p.key,direction:k},s=0,e.onSortChange?.(a),d(),m()}),v.append(h),v}))},m=()=>{let p=a&&t.find(f=>f.key===a?.key),b=a&&p?oo(e.rows,p,a.direction):e.rows,v=an(b.length,s,r);s=v.page,u.show(v,b.length),c.replaceChildren(...b.slice(v.first,v.end).map(f=>{let h=o("tr",{"data-testid":e.rowTestId,"data-name":e.rowName(f),class:e.rowClass?.(f)},...t.map(w=>{let x=w.value(f);return o("td",{class:w.numeric?"numeric":void 0,"data-column":w.key,title:w.cellTitle?.(f),"data-value":x===null?void 0:String(x)},w.render?w.render(f):w.format?w.format(f):String(x??"—"))})),k=e.onRowClick;return k&&(h.classList.add("clickable"),h.addEventListener("click",()=>k(f))),h}))};return d(),m(),i}function io(e,t){let n=o("span",{class:"pager-range","data-testid":`${e}-range`}),r=(l,c,u)=>{let d=o("button",{type:"button","data-testid":`${e}-${u}`},l);return d.addEventListener("click",()=>t(c)),d},a=r("‹ previous",-1,"previous"),s=r("next ›",1,"next");return{caption:o("caption",{class:"pager","data-testid":`${e}-pager`},n,a,s),show:(l,c)=>{n.textContent=on(l,c,y),a.disabled=l.page===0,s.disabled=l.page>=l.pages-1}}}function ht(e){document.documentElement.dataset.theme=e?"dark":"light"}function lo(){if(window.parent===window)return null;try{return window.parent.document.body}catch{return null}}function ln(){let e=lo();if(e){let n=()=>ht(e.classList.contains("dark-mode"));n(),new MutationObserver(n).observe(e,{attributes:!0,attributeFilter:["class"]});return}let t=window.matchMedia("(prefers-color-scheme: dark)");ht(t.matches),t.addEventListener("change",n=>ht(n.matches))}var sn=["#4e79a7","#f28e2b","#e15759","#76b7b2","#59a14f","#edc948","#b07aa1","#ff9da7","#9c755f","#bab0ac"];function B(e){return sn[Math.max(0,e)%sn.length]??"#888"}var he=16,bn=[["step_time","Step time"],["collective_wait","Collective wait"],["memory","Memory"]],pe=56,co=18,uo=640,mo=14,cn=8,we=["#440154","#3b528b","#21918c","#5ec962","#fde725"];function gn(e,t,n,r){return M(`./rank_heatmap?${P(e,{metric:t})}`,n,r)}var dn=5,un=3;function re(e,t,n,r=new Set){if(e.length<=he)return{charted:[...e],note:null};let a=e.filter(u=>t(u)!==null).sort((u,d)=>(t(u)??0)-(t(d)??0)),s=new Set([...a.slice(-dn),...a.slice(0,un)].map(u=>u.rank));for(let u of r)s.add(u);let i=e.filter(u=>s.has(u.rank)),l=r.size>0?" and those a finding names":"",c=o("p",{class:"muted","data-testid":"charted-ranks"},`Charted: ${i.length} of ${e.length} ranks, the ${dn} highest and ${un} lowest by ${n}${l}. Pick a rank in the toolbar to chart another.`);return{charted:i,note:c}}var mn=4;async function yn(e,t,n){let r=["step_time","collective_wait"],s=(await Promise.allSettled(r.map(l=>gn(e,l,n)))).flatMap(l=>l.status==="fulfilled"?l.value.outlier_ranks:[]).sort((l,c)=>Math.abs(c.z)-Math.abs(l.z)).map(l=>l.rank),i=new Set;for(let l of s)i.size<mn-1&&t.includes(l)&&i.add(l);for(let l of t){if(i.size>=mn)break;i.add(l)}return[...i]}function pn(e){return bn.some(([t])=>t===e)}function hn(e){let t=Number.parseInt(e.slice(1),16);return[t>>16&255,t>>8&255,t&255]}function po(e){let t=Math.min(Math.max(e,0),1)*(we.length-1),n=Math.min(Math.floor(t),we.length-2),r=hn(we[n]??"#000000"),a=hn(we[n+1]??"#000000");return`rgb(${r.map((i,l)=>Math.round(i+(t-n)*((a[l]??0)-i))).join(",")})`}function ve(e,t){return e.unit==="bytes"?T(t):g(t)}function ho(e,t){let n=e.first_steps[t],r=e.last_steps[t];return n===r?`step ${n}`:`steps ${n}–${r}`}function fn(e){let t=e.slice(0,cn).join(", ");return e.length>cn?`${t}, …`:t}var Ie=class{constructor(t,n,r){this.run=t;this.navigate=n;this.onProgress=r;let a=N().get("hm");this.metric=pn(a)?a:"step_time";let s=o("select",{"data-testid":"heatmap-metric","aria-label":"Heatmap metric"},...bn.map(([i,l])=>o("option",{value:i,selected:i===this.metric},l)));s.addEventListener("change",()=>{pn(s.value)&&(this.metric=s.value,L({hm:this.metric}),this.load())}),this.openButton.addEventListener("click",()=>this.navigate("timeline",{ranks:[...this.picked].sort((i,l)=>i-l).join(",")})),this.canvas.addEventListener("mousemove",i=>this.hover(i)),this.canvas.addEventListener("mouseleave",()=>this.tooltip.hidden=!0),this.canvas.addEventListener("click",i=>{let l=this.cellAt(i);l&&this.toggle(l.rank)}),this.element=o("section",{class:"panel heatmap","data-testid":"heatmap-panel"},o("h2",{},"Ranks × steps"),o("p",{class:"muted"},"Too many ranks for one row each: one line of cells per rank. Click cells or outlier ranks to pick ranks, then open them in the Timeline."),o("label",{class:"heatmap-metric"},"Metric ",s),this.body,o("div",{class:"picked"},o("h3",{},"Picked ranks"),this.pickedList,this.openButton)),this.renderPicked(),new ResizeObserver(()=>{this.body.clientWidth!==this.drawnWidth&&this.draw()}).observe(this.body)}run;navigate;onProgress;element;metric;answer=null;picked=new Set;request=new AbortController;canvas=o("canvas",{class:"heatmap-canvas","data-testid":"rank-heatmap"});tooltip=o("div",{class:"chart-tooltip",hidden:!0,"data-testid":"heatmap-tooltip"});body=o("div",{class:"heatmap-body"});pickedList=o("div",{class:"picked-ranks","data-testid":"picked-ranks"});openButton=o("button",{type:"button","data-testid":"open-picked-timeline",disabled:!0},"Open picked ranks in the Timeline");layout={cell:1,row:1};drawnWidth=0;async load(){this.request.abort(),this.request=new AbortController;let t=this.request.signal;this.body.replaceChildren(o("p",{class:"muted"},"Loading…"));try{let n=await gn(this.run,this.metric,t,this.onProgress);if(t.aborted)return;this.answer=n,this.renderBody()}catch(n){if(t.aborted)return;this.body.replaceChildren(o("p",{class:"error",role:"alert"},String(n.message)))}}renderBody(){let t=this.answer;if(!t)return;if(t.ranks.length===0||t.min===null||t.max===null){this.body.replaceChildren(o("p",{class:"muted","data-testid":"heatmap-empty"},t.reason??"No values."));return}let n=t.bucket>1?` Each column is ${t.metric==="memory"?"the largest value":"the mean"} of ${t.bucket} consecutive steps (${t.steps_total} steps).`:"",r=o("div",{class:"heatmap-stage"},this.canvas,this.tooltip);this.body.replaceChildren(o("p",{class:"muted"},`${t.ranks.length} ranks, from ${t.source}.${n}`),r,this.legend(t),this.outliers(t)),this.draw()}legend(t){let n=t.min??0,r=t.max??0,a=`linear-gradient(to right, ${we.join(", ")})`;return o("div",{class:"heatmap-legend","data-testid":"heatmap-legend"},o("span",{},ve(t,n)),o("span",{class:"heatmap-gradient",style:`background: ${a}`}),o("span",{},ve(t,r)),o("span",{class:"heatmap-missing"}),o("span",{class:"muted"},"no value"))}outliers(t){let n=t.outlier_ranks.map(a=>{let s=o("button",{type:"button",class:"link-button","data-rank":a.rank},`rank ${a.rank}`);s.addEventListener("click",()=>this.toggle(a.rank));let i=a.steps.length?`; stands out in steps ${fn(a.steps)}`:"";return o("li",{"data-testid":"outlier-rank","data-rank":a.rank},s,` median ${ve(t,a.median)} vs ${ve(t,a.typical)} typical (${a.direction}, z ${a.z.toFixed(1)})${i}`)}),r=t.outlier_steps.length?o("p",{"data-testid":"outlier-steps"},`Steps that stand out for every rank: ${fn(t.outlier_steps)}`):null;return o("div",{class:"heatmap-outliers"},o("h3",{},"Outlier ranks"),n.length?o("ul",{"data-testid":"outlier-ranks"},...n):o("p",{class:"muted","data-testid":"outlier-ranks-none"},"No rank stands out on this metric."),r)}toggle(t){this.picked.has(t)?this.picked.delete(t):this.picked.add(t),this.renderPicked(),this.draw()}renderPicked(){let t=[...this.picked].sort((n,r)=>n-r);this.pickedList.replaceChildren(...t.length?t.map(n=>{let r=o("button",{type:"button",class:"rank-toggle","aria-pressed":"true","data-rank":n,title:`Unpick rank ${n}`},`rank ${n} ×`);return r.addEventListener("click",()=>this.toggle(n)),r}):[o("span",{class:"muted"},"None yet.")]),this.openButton.disabled=t.length===0}draw(){let t=this.answer;if(!t||t.min===null||t.max===null)return;let n=t.ranks.length,r=t.first_steps.length;this.drawnWidth=this.body.clientWidth;let a=Math.max(320,(this.body.clientWidth||900)-8),s=Math.max(1,Math.floor((a-pe)/Math.max(r,1))),i=Math.max(1,Math.min(mo,Math.floor(uo/n)));this.layout={cell:s,row:i};let l=window.devicePixelRatio||1,c=pe+s*r,u=i*n+co;this.canvas.width=Math.round(c*l),this.canvas.height=Math.round(u*l),this.canvas.style.width=`${c}px`,this.canvas.style.height=`${u}px`,this.canvas.dataset.rows=String(n),this.canvas.dataset.columns=String(r),this.canvas.dataset.metric=t.metric;let d=this.canvas.getContext("2d");if(!d)return;let m=getComputedStyle(document.documentElement),p=h=>m.getPropertyValue(h).trim()||"#888";d.setTransform(l,0,0,l,0,0),d.fillStyle=p("--bg"),d.fillRect(0,0,c,u);let b=Math.max(t.max-t.min,1);for(let h=0;h<n;h++){let k=t.values[h]??[];for(let w=0;w<r;w++){let x=k[w];d.fillStyle=x==null?p("--grid"):po((x-t.min)/b),d.fillRect(pe+w*s,h*i,s,i)}}d.font="10px sans-serif",d.textBaseline="middle";let v=Math.max(1,Math.ceil(12/i));for(let h=0;h<n;h++){let k=t.ranks[h]??0;this.picked.has(k)&&(d.fillStyle=p("--accent"),d.fillRect(pe-6,h*i,4,Math.max(i,2))),h%v===0&&(d.fillStyle=p("--fg-muted"),d.fillText(String(k),2,h*i+Math.max(i,10)/2))}d.textBaseline="top",d.fillStyle=p("--fg-muted");let f=Math.max(1,Math.ceil(48/s));for(let h=0;h<r;h+=f)d.fillText(String(t.first_steps[h]),pe+h*s,n*i+4)}cellAt(t){let n=this.answer;if(!n)return null;let r=this.canvas.getBoundingClientRect(),a=t.clientX-r.left-pe,s=t.clientY-r.top,i=Math.floor(a/this.layout.cell),l=Math.floor(s/this.layout.row),c=n.ranks[l];return a<0||i>=n.first_steps.length||c===void 0?null:{rank:c,row:l,column:i}}hover(t){let n=this.answer,r=this.cellAt(t);if(!n||!r){this.tooltip.hidden=!0;return}let a=n.values[r.row]?.[r.column];this.tooltip.replaceChildren(o("div",{class:"tooltip-title"},`rank ${r.rank} · ${ho(n,r.column)}`),o("div",{},a==null?"no value":ve(n,a))),this.tooltip.hidden=!1;let s=this.canvas.getBoundingClientRect();this.tooltip.style.left=`${t.clientX-s.left+12}px`,this.tooltip.style.top=`${t.clientY-s.top+12}px`}};var ft=[["computation_ns","computation"],["overlap_ns","overlapped communication"],["exposed_ns","exposed communication"],["other_ns","other"]],fo=.1;function wn(e,t){return e==="other_ns"?"var(--grid)":B(t)}function vn(e){return ft.reduce((t,[n])=>t+e[n],0)}function Oe(){return o("div",{class:"legend"},...ft.map(([e,t],n)=>o("span",{class:"legend-item"},o("span",{class:"legend-swatch",style:`background: ${wn(e,n)}`}),t)))}function bt(e,t){let n=Math.max(1,...e.map(({split:r})=>vn(r)));return o("div",{class:"breakdown","data-testid":t},...e.map(({label:r,split:a})=>{let s=vn(a),i=ft.map(([l,c],u)=>{let d=a[l],m=s>0?d/s:0;return o("span",{class:`breakdown-part${l==="other_ns"?" category-idle":""}`,"data-part":l,"data-value":String(d),style:`width: ${(m*100).toFixed(3)}%; background: ${wn(l,u)}`,title:`${c}: ${g(d)} (${(m*100).toFixed(1)} %)`},d/n>=fo?g(d):"")});return o("div",{class:"breakdown-row","data-testid":`${t}-bar`,"data-name":r},o("span",{class:"breakdown-label"},r),o("span",{class:"breakdown-track"},o("span",{class:"breakdown-bar","aria-label":r,style:`width: ${(100*s/n).toFixed(3)}%`},...i)),o("span",{class:"breakdown-total muted"},g(s)))}))}function We(e,t){let{charted:n,note:r}=re(e,a=>a.exposed_ns,"exposed communication");return[r,bt(n.map(a=>({label:`rank ${a.rank}`,split:a})),t)]}function ke(e){return e===null?"—":`${(e/1e9).toFixed(2)} GB/s`}function gt(){return[{key:"name",label:"collective",numeric:!1,value:e=>e.name},{key:"group",label:"process group",numeric:!1,value:e=>e.group,format:e=>e.group??"—"},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>y(e.calls)},{key:"bytes_per_call",label:"bytes / call",title:"nelems × dtype size of a call, as nccl-tests sizes it (docs/ANALYSIS.md)",numeric:!0,value:e=>e.bytes===null?null:Math.floor(e.bytes/e.calls),format:e=>e.bytes===null?"—":T(e.bytes/e.calls)},{key:"bytes",label:"bytes",title:"Total over the calls",numeric:!0,value:e=>e.bytes,format:e=>T(e.bytes)},H("total_ns","total time",e=>e.total_ns,"Σ device kernel time"),H("mean_ns","mean time",e=>e.mean_ns,"Mean device kernel time per call"),{key:"algo_bandwidth",label:"algbw",title:"Algorithm bandwidth: bytes / device time (nccl-tests)",numeric:!0,value:e=>e.algo_bandwidth,format:e=>ke(e.algo_bandwidth)},{key:"bus_bandwidth",label:"busbw",title:"Bus bandwidth: algbw × nccl-tests' factor of the collective (docs/ANALYSIS.md)",numeric:!0,value:e=>e.bus_bandwidth,format:e=>ke(e.bus_bandwidth)}]}function Fe(e,t){let n=[...gt(),{key:"slowest_rank",label:"slowest rank",title:"The rank with the most time in it",numeric:!0,value:r=>r.slowest_rank}];return o("div",{class:"table-scroll"},$({columns:n,rows:e,testId:t,rowTestId:`${t}-row`,rowName:r=>`${r.name}/${r.group??""}`,sort:{key:"total_ns",direction:"desc"},pageSize:X}))}function yt(e,t,n){return["baseline","candidate"].map(r=>({key:`${e}_${r}`,label:`${t} (${r})`,numeric:!0,value:a=>a[e][r],format:a=>n(a[e][r])}))}function kn(e){let{baseline:t,candidate:n}=e;return t===null||n===null||t===0?null:100*(n-t)/t}function xn(e,t){let n=[{key:"name",label:"collective",numeric:!1,value:r=>r.name},{key:"group",label:"group",numeric:!1,value:r=>r.group,format:r=>r.group??"—"},{key:"status",label:"status",numeric:!1,value:r=>r.status},...yt("bus_bandwidth","busbw",ke),{key:"bus_bandwidth_change",label:"busbw change",numeric:!0,value:r=>kn(r.bus_bandwidth),format:r=>{let a=kn(r.bus_bandwidth);return a===null?"—":`${a>0?"+":""}${F(a)}`}},...yt("algo_bandwidth","algbw",ke),...yt("mean_ns","mean time",g)];return o("div",{class:"table-scroll"},o("p",{class:"muted"},`Across ranks, whole traces; ${t} collective kinds and groups.`),$({columns:n,rows:e,testId:"compare-collectives-table",rowTestId:"compare-collective-row",rowName:r=>`${r.name}/${r.group??""}`,pageSize:X}))}function xe(e,t){return e.length>t?`${e.slice(0,Math.max(t-1,1))}…`:e}function Be(e,t,n=40){let r=e.map(s=>xe(s,n)),a=new Map;r.forEach((s,i)=>a.set(s,[...a.get(s)??[],i]));for(let s of a.values()){if(s.length<2)continue;let i=s.map(c=>t[c]??""),l=bo(i);s.forEach((c,u)=>{let d=xe((i[u]??"").slice(l).trim(),16),m=e[c]??"";r[c]=d===""?xe(m,n):`${xe(m,n-d.length-3)} · ${d}`}),go(r,s,n)}return r}function bo(e){let t=e[0]??"",n=0;for(;n<t.length&&e.every(r=>r[n]===t[n]);)n+=1;return n}function go(e,t,n){let r=new Map;for(let a of t){let s=e[a]??"",i=(r.get(s)??0)+1;if(r.set(s,i),i>1){let l=` (${i})`;e[a]=`${xe(s,n-l.length)}${l}`}}}function _e(e){return e===null||!Number.isFinite(e)?"—":e===0?"±0":`${e>0?"+":"−"}${g(Math.abs(e))}`}function _n(e){if(!(e===null||e===0))return e>0?"delta-worse":"delta-better"}var Ge=720,ze=22,vt=150,yo=90,vo=20,Sn={breakdown:"the traced steps' breakdown categories",spans:"MyTimer's top-level spans"};function Tn(e,t){let n=t+ze/2;return{class:"chart-label",x:e,y:n,"text-anchor":"end","dominant-baseline":"middle"}}function wt(e,t){return e.reduce((n,r)=>n+r[t],0)}function kt(e,t,n){if(e.length===0)return o("p",{class:"muted","data-testid":"no-category-deltas"},"No categories to compare: the runs need traced steps, or MyTimer spans, of the same kind.");let r=[...e].sort((m,p)=>Math.abs(p.delta_ns)-Math.abs(m.delta_ns)),a=Math.max(1,...r.map(m=>Math.abs(m.delta_ns))),s=(Ge-vt-yo)/2,i=vt+s,l=r.length*ze+4,c=r.map(m=>m.category),u=Be(c,c,vo),d=R("svg",{class:"delta-chart",width:Ge,height:l,viewBox:`0 0 ${Ge} ${l}`,role:"img","aria-label":"Per-step time by category: candidate minus baseline"});return r.forEach((m,p)=>{let b=p*ze+2,v=Math.abs(m.delta_ns)/a*s,f=m.delta_ns<0?i-v:i,h=m.delta_ns>0?"slower":m.delta_ns<0?"faster":"same";d.append(R("g",{"data-testid":"category-delta","data-category":m.category,"data-value":m.delta_ns},R("title",{},`${m.category}: ${g(m.baseline_ns)} → ${g(m.candidate_ns)} per step`),R("text",Tn(vt-8,b),u[p]??m.category),R("rect",{class:`delta-bar delta-${h}`,x:f,y:b+3,width:Math.max(1,v),height:ze-6}),R("text",Tn(Ge-4,b),_e(m.delta_ns))))}),d.append(R("line",{class:"chart-axis",x1:i,x2:i,y1:0,y2:l})),o("div",{class:"table-scroll","data-testid":"category-deltas"},o("p",{class:"muted","data-testid":"category-statistic","data-statistic":n},(n==="median"?`Each run's median step split by ${Sn[t??""]??"category"} (the rest of the step as “(other)”), candidate minus baseline; the parts add up to the median difference: `:`Mean time per step by ${Sn[t??""]??"category"}, candidate minus baseline: `)+"right of the line is slower, left is faster."),d,o("p",{class:"muted","data-testid":"category-totals"},`All ${n==="median"?"parts":"categories"}: ${g(wt(r,"baseline_ns"))} → ${g(wt(r,"candidate_ns"))} ${n==="median"?"(the median steps)":"per step"} (${_e(wt(r,"delta_ns"))}).`))}var wo=20,ko={baseline_ns:"new",candidate_ns:"vanished"};function Mn(e){return e.baseline_ns?e.delta_ns/e.baseline_ns:null}function xo(e){let t=(a,s)=>({key:a,label:s,numeric:!0,value:i=>i[a],format:i=>i.status===ko[a]?"—":g(i[a])}),n=e.calls,r=n?[{key:"baseline_calls",label:"baseline calls",numeric:!0,value:a=>n(a)[0],format:a=>y(n(a)[0])},{key:"candidate_calls",label:"candidate calls",numeric:!0,value:a=>n(a)[1],format:a=>y(n(a)[1])}]:[];return[{key:"name",label:e.noun,numeric:!1,value:e.label??e.name,cellTitle:e.name},...e.extra??[],{key:"status",label:"status",numeric:!1,value:a=>a.status},t("baseline_ns","baseline"),t("candidate_ns","candidate"),{key:"delta_ns",label:"Δ",title:"Candidate minus baseline (+ is slower)",numeric:!0,value:a=>a.delta_ns,render:a=>o("span",{class:_n(a.delta_ns)},_e(a.delta_ns))},{key:"delta_pct",label:"Δ %",title:"The delta as a share of the baseline's time",numeric:!0,value:Mn,format:a=>{let s=Mn(a);return s===null?"—":`${s>0?"+":""}${(s*100).toFixed(1)} %`}},...r]}function _o(e,t){let n=N(),r=n.get(`${e}sort`),a=n.get(`${e}dir`);return t.some(s=>s.key===r)&&(a==="asc"||a==="desc")?{key:r,direction:a}:{key:"delta_ns",direction:"desc"}}function Ue(e){if(e.rows.length===0)return o("p",{class:"muted"},`No ${e.noun}s in either run.`);let t=xo(e),n=o("input",{type:"search",class:"search-input",placeholder:`Filter ${e.noun}s`,"aria-label":`Filter ${e.noun}s`,"data-testid":`${e.prefix}-delta-filter`}),r=o("p",{class:"muted"}),a=o("div",{class:"table-scroll"}),s=()=>{let i=n.value.trim().toLowerCase(),l=e.rows.filter(d=>i===""||e.name(d).toLowerCase().includes(i)),c=e.total>e.rows.length?`the ${y(e.rows.length)} largest changes of ${y(e.total)} ${e.noun}s`:`${y(e.rows.length)} ${e.noun}s`,u=l.length===e.rows.length?"":`${y(l.length)} match the filter, of `;r.textContent=`${e.per}; ${u}${c}.`,a.replaceChildren($({columns:t,rows:l,testId:`${e.prefix}-delta-table`,rowTestId:`${e.prefix}-delta-row`,rowName:e.name,pageSize:wo,sort:_o(e.prefix,t),onSortChange:d=>L({[`${e.prefix}sort`]:d.key,[`${e.prefix}dir`]:d.direction})}))};return n.addEventListener("input",s),s(),o("div",{},o("div",{class:"controls"},n),r,a)}var xt=e=>`${e.toFixed(1)} %`,$n={peak_bytes:{label:"peak allocated",format:T},reserved_bytes:{label:"peak reserved",format:T},slope_bytes_per_step:{label:"growth per step",format:e=>`${T(e)}/step`},trace_utilization:{label:"GPU busy in the traces",format:xt},tracker_utilization:{label:"GPU utilization (NVML)",format:xt},spread:{label:"straggler spread (slowest − fastest rank, of the median)",format:e=>xt(e*100)}};function So(e,t){return t===null?"—":t===0?"±0":`${t>0?"+":"−"}${e(Math.abs(t))}`}function _t(e,t,n,r){let a=s=>s===null?"—":n(s);return o("tr",{"data-name":e},o("td",{},t),o("td",{class:"numeric"},a(r.baseline)),o("td",{class:"numeric"},a(r.candidate)),o("td",{class:"numeric","data-column":"delta"},So(n,r.delta)))}function Rn(e,t){return o("div",{class:"table-scroll"},o("table",{class:"data-table","data-testid":e},o("thead",{},o("tr",{},o("th",{},"metric"),o("th",{class:"numeric"},"baseline"),o("th",{class:"numeric"},"candidate"),o("th",{class:"numeric"},"Δ"))),o("tbody",{},...t)))}function St(e,t,n){let r=Object.entries(e).filter(([,a])=>a.baseline!==null||a.candidate!==null).map(([a,s])=>{let i=$n[a]??{label:a.replaceAll("_"," "),format:String};return _t(a,i.label,i.format,s)});return r.length===0?o("p",{class:"muted","data-testid":`${t}-none`},n):Rn(`${t}-table`,r)}function En(e){let t=$n.spread,n=e.ranks.map(i=>_t(`rank ${i.rank}`,`rank ${i.rank} median step`,g,i));if(t&&(e.spread.baseline!==null||e.spread.candidate!==null)&&n.unshift(_t("spread",t.label,t.format,e.spread)),n.length===0)return o("p",{class:"muted","data-testid":"balance-none"},"Both runs have one rank (or no matched ranks): nothing to balance.");let{baseline:r,candidate:a}=e.slowest_rank,s=r===null&&a===null?null:o("p",{class:"muted"},`Slowest rank: ${r??"—"} in the baseline, ${a??"—"} in the candidate.`);return o("div",{},Rn("balance-table",n),s)}function Z(e,t,...n){return o("section",{class:"panel","data-testid":t},o("h2",{},e),...n)}function Se(e,t){return o("section",{class:"notice","data-testid":e,role:"status"},t)}function To(e,t,n){let r=document.querySelector('[data-testid="run-select"]');r&&r.value!==e&&(r.value=e,r.dispatchEvent(new Event("change"))),n("timeline",{step:t})}function Mo(e){let t=e.verdict.replace(" ","-"),n=i=>{let l=e[i];return o("tr",{"data-testid":`step-stats-${i}`},o("th",{},i),o("td",{class:"numeric"},y(l.steps)),o("td",{class:"numeric"},g(l.median_ns)),o("td",{class:"numeric"},g(l.p95_ns)))},[r,a]=e.ci,s=e.ratio===null||r===null||a===null?"One of the runs has fewer than two steps: no ratio to test.":`median(candidate) / median(baseline) = ${e.ratio.toFixed(3)}, ${Math.round((1-e.alpha)*100)} % bootstrap interval [${r.toFixed(3)}, ${a.toFixed(3)}].`;return o("section",{class:"panel"},o("p",{class:`compare-headline verdict-${t}`,"data-testid":"compare-headline","data-verdict":e.verdict},e.headline),o("p",{class:"muted","data-testid":"compare-ratio"},s),o("table",{class:"data-table"},o("thead",{},o("tr",{},o("th",{},"run"),o("th",{class:"numeric"},"steps"),o("th",{class:"numeric"},"median step"),o("th",{class:"numeric"},"p95 step"))),o("tbody",{},n("baseline"),n("candidate"))))}function $o(e,t){let n=(a,s)=>{if(a===null)return null;let{run:i,step:l}=a,c=o("button",{type:"button",class:"link-button","data-testid":`timeline-link-${s}`,"data-run":i,"data-step":l},`${s} ${i}, step ${l}`);return c.addEventListener("click",()=>To(i,l,t)),o("li",{},c)},r=[n(e.links.baseline_step,"baseline"),n(e.links.candidate_step,"candidate")];return r.every(a=>a===null)?null:Z("Open in the Timeline","timeline-links",o("p",{class:"muted"},"A typical step of each run (nearest its median step time):"),o("ul",{class:"top-list"},...r))}function Tt(e,t,n){return e.length===0?o("p",{class:"muted","data-testid":t},n):o("ul",{class:"findings","data-testid":t},...e.map(r=>o("li",{class:`finding severity-${r.severity}`,"data-testid":"compare-finding","data-kind":r.kind},o("div",{class:"finding-head"},o("span",{class:`severity-badge severity-${r.severity}`},r.severity),o("strong",{class:"finding-title"},r.title)))))}function Ro(e){let{appeared:t,disappeared:n,kept:r}=e.findings;return Z("Findings","compare-findings",o("h3",{},`Appeared in the candidate (${t.length})`),Tt(t,"findings-appeared","None: the candidate has no finding the baseline lacks."),o("h3",{},`Gone from the candidate (${n.length})`),Tt(n,"findings-disappeared","None: every finding of the baseline is still there."),o("h3",{},`In both runs (${r.length})`),Tt(r,"findings-kept","None."))}function Cn({baseline:e,candidate:t}){return`Time per traced step and rank (the traces cover ${y(e)} and ${y(t)} such windows; a trace without steps counts whole)`}function Eo(e,t){return o("div",{"data-testid":"compare-result"},e.ranks.note?Se("compare-ranks-note",e.ranks.note):null,Mo(e.step_time),$o(e,t),Z("Where the step time changed","compare-categories",e.attribution.length>0||e.categories.length===0?kt(e.attribution,e.category_source,"median"):kt(e.categories,e.category_source,"mean")),Ro(e),Z("Operators","compare-operators",Ue({prefix:"co",noun:"operator",per:Cn(e.per_step),rows:e.operators,total:e.operators_total,name:n=>n.name,calls:n=>[n.baseline_calls,n.candidate_calls]})),Z("Kernels","compare-kernels",Ue({prefix:"ck",label:n=>n.short_name,noun:"kernel",per:Cn(e.per_step),rows:e.kernels,total:e.kernels_total,name:n=>n.name,calls:n=>[n.baseline_calls,n.candidate_calls]})),Z("Modules","compare-modules",Ue({prefix:"cm",noun:"module",per:"Time per step and rank",rows:e.modules,total:e.modules_total,name:n=>n.path||"(model)",extra:[{key:"phase",label:"phase",numeric:!1,value:n=>n.phase}]})),e.collectives.length?Z("Collectives","compare-collectives",xn(e.collectives,e.collectives_total)):null,Z("Memory","compare-memory",St(e.memory,"memory","Neither run sampled memory (MemorySampler).")),Z("GPU","compare-gpu",St(e.gpu,"gpu","Neither run has GPU kernels in traces or GpuTracker samples.")),Z("Rank balance","compare-balance",En(e.balance)))}function Ln(e,t,n){let a=(n===""||t.includes(n)?t:[...t,n]).map(s=>t.includes(s)?o("option",{value:s},s):o("option",{value:s,disabled:!0},`${s} (missing)`));n===""&&a.unshift(o("option",{value:"",disabled:!0},"— pick a run —")),e.replaceChildren(...a),e.value=n}function Co(e,t,n){if(e.length<2){let r=e.length===1?"only one":"none";return Se("compare-problem",`Compare needs two runs; this logdir holds ${r}.`)}for(let[r,a]of[["baseline",t],["candidate",n]]){if(a==="")return Se("compare-prompt",`Pick a ${r} run to compare with “${r==="baseline"?n:t}”${r==="baseline"?" (no earlier run with the same number of ranks to start from)":""}.`);if(!e.includes(a))return Se("compare-problem",`The ${r} run “${a}” is not in this logdir; pick another.`)}return t===n?Se("compare-problem",`Baseline and candidate are the same run (“${t}”): pick two different runs.`):null}var An={id:"compare",label:"Compare",usesRankSelect:!1,async show({run:e,signal:t,onProgress:n,navigate:r}){let a=await De(t),s=a.map(h=>h.name),i=N(),l=i.get("cand")??e,c=i.get("base")??rn(a,l)??"",u=o("select",{"data-testid":"compare-baseline","aria-label":"Baseline run"}),d=o("select",{"data-testid":"compare-candidate","aria-label":"Candidate run"}),m=o("button",{type:"button",class:"compare-swap","data-testid":"compare-swap"},"⇄ swap"),p=o("div",{"data-testid":"compare-body"}),b=new AbortController,v=async h=>{b.abort(),b=new AbortController,Ln(u,s,c),Ln(d,s,l);let k=AbortSignal.any([t,b.signal]);L({base:c||null,cand:l||null});let w=Co(s,c,l);if(w){p.replaceChildren(w);return}p.setAttribute("aria-busy","true");try{let x=await nn(c,l,k,h);k.aborted||p.replaceChildren(Eo(x,r))}catch(x){if(k.aborted)return;let I=x instanceof W?`${x.message} (${x.code})`:String(x);p.replaceChildren(o("div",{class:"error","data-testid":"error",role:"alert"},o("strong",{},"Could not compare the runs"),o("p",{},I)))}finally{k.aborted||p.removeAttribute("aria-busy")}},f=h=>p.replaceChildren(o("p",{class:"muted"},`Reading run files… ${Math.round(h.fraction*100)} %`));return u.addEventListener("change",()=>{c=u.value,v(f)}),d.addEventListener("change",()=>{l=d.value,v(f)}),m.addEventListener("click",()=>{[c,l]=[l,c],v(f)}),await v(n),o("div",{class:"compare","data-testid":"compare"},o("div",{class:"compare-pickers"},o("label",{},"Baseline ",u),m,o("label",{},"Candidate ",d)),p)}};function Pn(e,t,n,r){return M(`./distributed?${P(e,{rank:t})}`,n,r)}var Mt=40;function Hn(e,t,...n){return o("section",{class:"panel","data-testid":t},o("h2",{},e),...n)}function Lo(e){let t=[Oe(),...We(e.ranks,"distributed-ranks")],n=e.ranks.length===1?e.ranks[0]:void 0;if(n!==void 0&&n.steps.length>1){let r=n.steps.slice(0,Mt).map(a=>({label:a.step===null?"trace":`step ${a.step}`,split:a}));t.push(o("h3",{},`rank ${n.rank} per step`),bt(r,"distributed-steps"),n.steps.length>Mt?o("p",{class:"muted"},`First ${Mt} of ${n.steps.length} steps.`):null)}return Hn("Computation and communication per rank","distributed-split",o("p",{class:"muted"},"Over the traced steps: compute kernels alone, communication during compute, communication alone, and the rest (copies, host work, idle)."),...t)}function Ao(e,t){let n=e.flatMap(a=>a.per_rank),r=[{key:"rank",label:"rank",numeric:!0,value:a=>a.rank},...gt()];return o("div",{class:"table-scroll"},$({columns:r,rows:n,testId:t,rowTestId:`${t}-row`,rowName:a=>`${a.name}/${a.group??""}/${a.rank}`,sort:{key:"total_ns",direction:"desc"},pageSize:X}))}function Nn(e,t,n){if(n.length===0)return null;let r=Math.max(...n.map(a=>a.ranks));return Hn(e,t,o("p",{class:"muted"},"Times are the kernels' device durations; bytes and bandwidths come from the trace's collective arguments (— where it has none)."),Fe(n,`${t}-table`),r>1?o("h3",{},"Per rank"):null,r>1?Ao(n,`${t}-per-rank`):null)}function Po(e){return o("div",{class:"distributed","data-testid":"distributed"},e.empty_reason?o("p",{class:"muted","data-testid":"distributed-empty"},e.empty_reason):null,e.ranks.length?Lo(e):null,Nn("Collectives","collectives",e.collectives),Nn("Point-to-point","point-to-point",e.point_to_point))}var Dn={id:"distributed",label:"Distributed",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){return Po(await Pn(e,t,n,r))}};var D={top:10,right:16,bottom:38,left:68},No=90,Ho=40;function Ke(e,t,n,r){let s=(t-e||Math.abs(t)||1)/Math.max(1,n),i=10**Math.floor(Math.log10(s)),l=[1,2,5,10].map(m=>m*i).find(m=>m>=s)??10*i;r&&(l=Math.max(1,Math.round(l)));let c=Math.floor(e/l)*l,u=Math.max(Math.ceil(t/l)*l,c+l),d=[];for(let m=0;c+m*l<=u+l/2;m+=1)d.push(Number((c+m*l).toPrecision(12)));return{min:c,max:u,ticks:d}}function Wn(e,t){let n=0,r=e.length;for(;n<r;){let a=n+r>>1;(e[a]??1/0)<t?n=a+1:r=a}return n}function Do(e,t){let n=null;for(let{x:r}of e){let a=Wn(r,t);for(let s of[r[a-1],r[a]])s!==void 0&&(n===null||Math.abs(s-t)<Math.abs(n-t))&&(n=s)}return n}function In(e){let t=1/0,n=-1/0;for(let r of e)r<t&&(t=r),r>n&&(n=r);return[t,n]}function*On(e,t){for(let n of e)yield*n[t]}function Io(e,t,n){let{series:r,height:a}=e,s=t-D.left-D.right,i=a-D.top-D.bottom,[l,c]=In(On(r,"x")),[,u]=In(On(r,"y")),d=Ke(l,c,s/No,!0),m=Ke(0,u,i/Ho,!1),p=_=>D.left+(_-d.min)/(d.max-d.min)*s,b=_=>D.top+(1-(_-m.min)/(m.max-m.min))*i,v=D.top+i,f=R("svg",{width:t,height:a,class:"chart-svg",role:"img"}),h=e.yTickFormat(m.ticks);for(let _ of m.ticks){let C=b(_).toFixed(1);f.append(R("line",{class:"chart-grid",x1:D.left,x2:t-D.right,y1:C,y2:C}),R("text",{class:"chart-tick",x:D.left-6,y:C,"text-anchor":"end","dominant-baseline":"middle"},h(_)))}for(let _ of d.ticks)f.append(R("text",{class:"chart-tick",x:p(_).toFixed(1),y:v+16,"text-anchor":"middle"},e.formatX(_)));if(f.append(R("line",{class:"chart-axis",x1:D.left,x2:t-D.right,y1:v,y2:v}),R("text",{class:"chart-label",x:D.left+s/2,y:a-4,"text-anchor":"middle"},e.xLabel)),e.markers?.length){let _=R("g",{class:"chart-markers","data-testid":`${e.testId}-markers`});for(let C of e.markers){if(C<d.min||C>d.max)continue;let K=p(C).toFixed(1);_.append(R("line",{class:"chart-mark",x1:K,x2:K,y1:D.top,y2:v}))}f.append(_)}for(let _ of r){let C=_.x.map((K,z)=>`${p(K).toFixed(1)},${b(_.y[z]??0).toFixed(1)}`);f.append(C.length===1?R("circle",{cx:p(_.x[0]??0),cy:b(_.y[0]??0),r:3,fill:_.color,"data-series":_.label}):R("polyline",{class:_.dashed?"chart-line chart-dashed":"chart-line",points:C.join(" "),stroke:_.color,"data-series":_.label}))}let k=R("line",{class:"chart-guide",y1:D.top,y2:v,visibility:"hidden"}),w=R("g"),x=R("rect",{x:D.left,y:D.top,width:s,height:i,class:"chart-hover"}),I=R("rect",{class:"chart-range",y:D.top,height:i,visibility:"hidden"});f.append(I,k,w,x),e.onRangeSelect&&Oo(x,I,_=>{let C=f.getBoundingClientRect().left,K=Math.min(Math.max(_-C-D.left,0),s);return{px:D.left+K,x:d.min+K/s*(d.max-d.min)}},e.onRangeSelect);let E=()=>{k.setAttribute("visibility","hidden"),w.replaceChildren(),n.hidden=!0};return x.addEventListener("pointerleave",E),x.addEventListener("pointermove",_=>{let C=f.getBoundingClientRect().left,K=d.min+(_.clientX-C-D.left)/s*(d.max-d.min),z=Do(r,K);if(z===null)return E();let q=[];w.replaceChildren();for(let V of r){let S=Wn(V.x,z),A=V.y[S];V.x[S]!==z||A===void 0||(w.append(R("circle",{cx:p(z),cy:b(A),r:3.5,fill:V.color,class:"chart-marker"})),q.push(o("div",{class:"tooltip-row"},o("span",{class:"swatch",style:`background:${V.color}`}),`${V.label}: ${e.formatY(A)}`)))}k.setAttribute("x1",p(z).toFixed(1)),k.setAttribute("x2",p(z).toFixed(1)),k.setAttribute("visibility","visible"),n.replaceChildren(o("div",{class:"tooltip-title"},`${e.xLabel} ${e.formatX(z)}`),...q),n.hidden=!1;let te=12,ce=p(z)+te+n.offsetWidth>t;n.style.left=`${ce?p(z)-te-n.offsetWidth:p(z)+te}px`,n.style.top=`${D.top}px`}),f}function Oo(e,t,n,r){let a=null,s=(i,l)=>{t.setAttribute("x",Math.min(i,l).toFixed(1)),t.setAttribute("width",Math.abs(l-i).toFixed(1)),t.setAttribute("visibility","visible")};e.addEventListener("pointerdown",i=>{a=n(i.clientX),e.setPointerCapture?.(i.pointerId)}),e.addEventListener("pointermove",i=>{a!==null&&s(a.px,n(i.clientX).px)}),e.addEventListener("pointerup",i=>{if(a===null)return;let l=n(i.clientX),c=a;a=null,!(Math.abs(l.px-c.px)<3)&&(s(c.px,l.px),r(Math.min(c.x,l.x),Math.max(c.x,l.x)))})}function j(e){let t=o("div",{class:"chart-tooltip",role:"tooltip","data-testid":`${e.testId}-tooltip`});t.hidden=!0;let n=o("div",{class:"chart-plot",style:`min-height:${e.height}px`},t),r=o("ul",{class:"chart-legend"},...e.series.map(s=>o("li",{},o("span",{class:"swatch",style:`background:${s.color}`}),s.label)),e.markers?.length&&e.markerLabel?o("li",{},o("span",{class:"swatch chart-mark-swatch"}),e.markerLabel):null),a=0;return new ResizeObserver(()=>{let s=n.clientWidth;s===0||s===a||(a=s,n.replaceChildren(Io(e,s,t),t))}).observe(n),o("figure",{class:"chart","data-testid":e.testId},n,r)}function Xe(e,t,n,r){return{key:e,label:t,title:n,numeric:!0,value:r,format:a=>{let s=r(a);return F(s===null?null:s*100)}}}var Wo=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"device",label:"GPU",numeric:!0,value:e=>e.device},{key:"name",label:"name",numeric:!1,value:e=>e.name,format:e=>e.name??"—"},{key:"memory_bytes",label:"memory",numeric:!0,value:e=>e.memory_bytes,format:e=>T(e.memory_bytes)},{key:"compute_capability",label:"compute capability",numeric:!1,value:e=>e.compute_capability,format:e=>e.compute_capability??"—"},{key:"sm_count",label:"SMs",numeric:!0,value:e=>e.sm_count,format:e=>y(e.sm_count)},Xe("utilization","GPU utilization","Share of the step windows in which some kernel runs on this GPU",e=>e.utilization),Xe("sm_efficiency","est. SM efficiency","Share of the SMs busy over the step windows: the running kernels' blocks per SM, capped at 1",e=>e.sm_efficiency),Xe("occupancy","est. achieved occupancy","Kernel-time-weighted mean of the kernels' est. achieved occupancy (trace args)",e=>e.occupancy),Xe("tensor_core_share","Tensor Cores","Share of kernel time in kernels that use Tensor Cores (guessed from kernel names)",e=>e.tensor_core_share)];function qe(e){return e.length===0?null:o("section",{class:"panel","data-testid":"gpu-summary"},o("h2",{},"GPU summary"),o("p",{class:"muted"},"From the traces: each device's properties, and its kernels over the step windows (torch-tb-profiler's definitions; docs/ANALYSIS.md)."),o("div",{class:"table-scroll"},$({columns:Wo,rows:e,testId:"gpu-summary-table",rowTestId:"gpu-summary-row",rowName:t=>`${t.rank}/${t.device}`})))}function Fn(e,t,n,r){return M(`./gpu?${P(e,{rank:t})}`,n,r)}var Fo=[{value:"util",title:"GPU utilization (share of time a kernel ran, NVML)",testId:"gpu-util-chart",format:e=>`${e.toFixed(1)} %`,ticks:me(" %")},{value:"mem_used",title:"GPU memory used (dashed: the device's total)",testId:"gpu-memory-chart",format:T,ticks:ue},{value:"power_w",title:"Power",testId:"gpu-power-chart",format:e=>`${e.toFixed(1)} W`,ticks:me(" W")},{value:"sm_clock_mhz",title:"SM clock",testId:"gpu-clock-chart",format:e=>`${e.toFixed(0)} MHz`,ticks:me(" MHz")},{value:"temp_c",title:"Temperature",testId:"gpu-temp-chart",format:e=>`${e.toFixed(0)} °C`,ticks:me(" °C")}];function Rt(e,t){let n={x:[],y:[]};return t?.forEach((r,a)=>{let s=e[a];r!==null&&s!==void 0&&(n.x.push(s),n.y.push(r))}),n}function Bn(e,t,...n){return o("section",{class:"panel","data-testid":t},o("h2",{},e),...n)}function Gn(e){let t=e.find(r=>r.steps.start_ns.length>0);if(!t)return{marks:[],label:""};let n=t.steps.every>1?`every ${t.steps.every}th `:"";return{marks:t.steps.start_ns,label:`${n}step start (rank ${t.rank})`}}function Bo(e,t,n){let r=`GPU ${t.index}${t.name?` ${t.name}`:""}`;return n?`rank ${e.rank} ${r}`:r}function Go(e,t){let n=t.length>1,r=[],a=0;for(let l of t)for(let c of l.devices){let{x:u,y:d}=Rt(c.t_ns,c[e.value]);if(u.length===0)continue;let m=Bo(l,c,n),p=B(a);if(a+=1,r.push({label:m,color:p,x:u,y:d}),e.value==="mem_used"){let b=Rt(c.t_ns,c.mem_total);b.x.length&&r.push({...b,label:`${m} total`,color:p,dashed:!0})}}if(r.length===0)return null;let{marks:s,label:i}=Gn(t);return Bn(e.title,e.testId,j({series:r,height:200,xLabel:"time since the first sample",formatX:g,formatY:e.format,yTickFormat:e.ticks,testId:`${e.testId}-plot`,markers:s,markerLabel:i}))}function zo(e){let t=e.length>1,{marks:n,label:r}=Gn(e),a=(s,i,l,c,u)=>{let d=e.map((m,p)=>({rank:m,i:p,...Rt(m.t_ns,m[s])})).filter(m=>m.x.length>0).map(m=>({label:t?`rank ${m.rank.rank}`:"this process",color:B(m.i),x:m.x,y:m.y}));return d.length===0?null:Bn(i,l,j({series:d,height:180,xLabel:"time since the first sample",formatX:g,formatY:c,yTickFormat:u,testId:`${l}-plot`,markers:n,markerLabel:r}))};return[a("cpu_pct","Process CPU use (% of one core; DataLoader workers not included)","cpu-chart",s=>`${s.toFixed(1)} %`,me(" %")),a("rss","Process resident memory (RSS)","cpu-rss-chart",T,ue)].filter(s=>s!==null)}function Uo(e){if(e.gpu_reason!==null)return o("section",{class:"notice","data-testid":"gpu-reason",role:"status"},o("strong",{},"No GpuTracker samples: "),`${e.gpu_reason}.`,e.ranks.length?" The process side is shown below.":"");let t=e.ranks.filter(n=>n.gpu_reason!==null);return t.length===0?null:o("section",{class:"notice","data-testid":"gpu-rank-reasons",role:"status"},o("strong",{},"Some ranks have no GPU samples: "),t.map(n=>`rank ${n.rank}: ${n.gpu_reason}`).join("; "))}function $t(e){let t=(e??[]).filter(n=>n!==null);return t.length?t.reduce((n,r)=>n+r,0)/t.length:null}function Ko(e){return $t(e.devices.map(t=>$t(t.util)))??$t(e.cpu_pct)}function Xo(e){let t=e.ranks.some(i=>i.devices.length>0),{charted:n,note:r}=re(e.ranks,Ko,t?"mean GPU utilization":"mean CPU use"),a=Fo.map(i=>Go(i,n)).filter(i=>i!==null),s=n.length===0?o("p",{class:"muted","data-testid":"no-system"},"Start collectors.GpuTracker(timer.writer) in the training processes to sample the GPUs and the process about once a second."):null;return o("div",{class:"gpu","data-testid":"gpu"},qe(e.gpus),Uo(e),r,...a,...zo(n),s)}var zn={id:"gpu",label:"GPU",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){return Xo(await Fn(e,t,n,r))}};function Te(e,t,n,r,a,s={}){let i=s.q?s.q:null,l=s.groupBy==="operator"?"operator":null;return M(`./kernels?${P(e,{rank:t,limit:n,q:i,group_by:l})}`,r,a)}var Un=1e3,Me=(e,t,n="")=>e===null?"—":`${e.toFixed(t)}${n}`,qo=250,Kn={key:"name",label:"kernel",title:"The kernel's function name; hover for its full name, click the row for details",numeric:!1,value:e=>e.short_name,cellTitle:e=>e.name},Vo={key:"operator",label:"launched by",title:"The operator around the kernel's launch (— where the trace does not say)",numeric:!1,value:e=>e.operator?e.operator:null,cellTitle:e=>e.operator??""},Xn=[{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>y(e.calls)},{key:"total_ns",label:"total",numeric:!0,value:e=>e.total_ns,format:e=>g(e.total_ns)},{key:"mean_ns",label:"mean",numeric:!0,value:e=>e.mean_ns,format:e=>g(e.mean_ns)},{key:"max_ns",label:"max",numeric:!0,value:e=>e.max_ns,format:e=>g(e.max_ns)},{key:"pct_of_kernel_time",label:"% of GPU time",numeric:!0,value:e=>e.pct_of_kernel_time,format:e=>Me(e.pct_of_kernel_time,1," %")},{key:"tensor_cores",label:"Tensor Cores",title:"Guessed from the kernel's name (docs/ANALYSIS.md)",numeric:!1,value:e=>e.tensor_cores?"yes":"no"},{key:"mean_est_occupancy_pct",label:"est. occupancy",numeric:!0,value:e=>e.mean_est_occupancy_pct,format:e=>Me(e.mean_est_occupancy_pct,1," %")},{key:"est_sm_efficiency",label:"est. SM efficiency",numeric:!0,value:e=>e.est_sm_efficiency,format:e=>Me(e.est_sm_efficiency===null?null:e.est_sm_efficiency*100,1," %")}];function Ve(e,t,n){return{key:e,label:t,title:n,numeric:!0,value:r=>r[e]??null,format:r=>Me(r[e]??null,1," %")}}var jo=[{key:"ncu_launches",label:"NCU launches",title:"Launches Nsight Compute profiled under this name",numeric:!0,value:e=>e.ncu_launches??0,format:e=>y(e.ncu_launches??0)},{key:"ncu_duration_ns",label:"NCU duration",title:"Mean gpu__time_duration of those launches",numeric:!0,value:e=>e.ncu_duration_ns??null,format:e=>g(e.ncu_duration_ns??null)},Ve("ncu_sm_throughput_pct","SM throughput","Compute (SM) throughput, % of peak (mean over launches)"),Ve("ncu_memory_throughput_pct","memory throughput","Memory throughput, % of peak (mean over launches)"),Ve("ncu_achieved_occupancy_pct","achieved occupancy","Achieved occupancy, % (mean over launches)"),Ve("ncu_theoretical_occupancy_pct","theoretical occupancy","Theoretical occupancy, % (mean over launches)"),{key:"ncu_registers_per_thread",label:"registers / thread",numeric:!0,value:e=>e.ncu_registers_per_thread??null,format:e=>Me(e.ncu_registers_per_thread??null,0)},{key:"ncu_match",label:"NCU match",title:"How the NCU kernel name matched a trace kernel name (docs/HTTP_API.md)",numeric:!1,value:e=>e.ncu_match??""}];function Yo(e){let t=[o("p",{class:"muted","data-testid":"ncu-summary"},`Nsight Compute: ${y(e.launches)} launches from ${e.files.join(", ")}; ${y(e.matched_kernels)} kernel names matched the trace's.`)];for(let[n,r]of[[e.unmatched,"match no kernel of the trace"],[e.ambiguous,"match several kernels of the trace (ambiguous)"]])n.length>0&&t.push(o("p",{class:"muted","data-testid":"ncu-unmatched"},`${y(n.length)} NCU kernel(s) ${r}: ${n.join("; ")}`));return t}function Zo(e){let t=o("span",{class:"muted","data-testid":"kernel-copy-status"}),n=o("button",{type:"button","data-testid":"kernel-copy"},"Copy full name");return n.addEventListener("click",()=>{navigator.clipboard.writeText(e.name).then(()=>{t.textContent="copied"},r=>{t.textContent=`could not copy: ${String(r)}`})}),o("div",{class:"kernel-details","data-testid":"kernel-details"},o("h3",{},e.short_name),o("code",{class:"full-name","data-testid":"kernel-full-name"},e.name),e.operator?o("p",{class:"muted"},`Launched by ${e.operator}`):null,o("p",{},n," ",t))}function Jo(e){if(e.total_rows===0)return e.empty_reason??Et;let t=e.group_by==="operator"?"kernel and operator pairs":"kernels",n=e.q===null?"":` matching "${e.q}" (of ${y(e.kernels)})`,r=e.total_rows>e.rows.length?`; the ${y(e.rows.length)} longest are listed`:"";return`${y(e.total_rows)} ${t}${n}${r}.`}function Qo(e){let t=N(),n=t.get("ksort"),r=t.get("kdir");return e.some(a=>a.key===n)&&(r==="asc"||r==="desc")?{key:n,direction:r}:{key:"total_ns",direction:"desc"}}var Et="No GPU kernels in this run's traces.";function es(e,t){if(e.length===0)return o("p",{class:"muted"},t??Et);let n=e.flatMap((r,a)=>{let s=BigInt(r.start_ns[0]??"0"),i=r.start_ns.map(c=>Number(BigInt(c)-s)),l=`rank ${r.rank} GPU ${r.device}`;return[{label:`${l} utilization`,color:B(2*a),x:i,y:r.utilization.map(c=>c*100)},{label:`${l} est. SM efficiency`,color:B(2*a+1),x:i,y:r.est_sm_efficiency.map(c=>c*100)}]});return j({series:n,height:220,xLabel:"time from the trace's start",formatX:g,formatY:r=>`${r.toFixed(1)} %`,yTickFormat:()=>r=>`${r} %`,testId:"gpu-utilization-chart"})}var qn={id:"kernels",label:"Kernels",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let a=N(),s=o("input",{type:"search",class:"search-input",placeholder:"Search kernels","aria-label":"Search kernels","data-testid":"kernel-search",value:a.get("kq")??""}),i=o("select",{"aria-label":"Group kernels by","data-testid":"kernel-group"},o("option",{value:"name"},"by name"),o("option",{value:"operator"},"by name and launching operator"));i.value=a.get("kgroup")==="operator"?"operator":"name";let l=o("p",{class:"muted","data-testid":"kernel-caption"}),c=o("div"),u=o("div",{class:"table-scroll"}),d=o("div"),m=()=>i.value==="operator"?"operator":"name",p=w=>{let x=w.ncu?[...Xn,...jo]:Xn,I=w.group_by==="operator"?[Kn,Vo,...x]:[Kn,...x];l.textContent=Jo(w),c.replaceChildren(...w.ncu?Yo(w.ncu):[]),d.replaceChildren(),u.replaceChildren(w.rows.length===0?o("p",{class:"muted","data-testid":"kernels-empty"},w.empty_reason??Et):$({columns:I,rows:w.rows,testId:"kernel-table",rowTestId:"kernel-row",rowName:E=>E.name,sort:Qo(I),onSortChange:E=>L({ksort:E.key,kdir:E.direction}),pageSize:X,onRowClick:E=>d.replaceChildren(Zo(E))}))},b=new AbortController,v=()=>{b.abort(),b=new AbortController;let w=s.value.trim();L({kq:w===""?null:w,kgroup:m()==="operator"?"operator":null}),Te(e,t,Un,b.signal,r,{q:w,groupBy:m()}).then(p,x=>{x instanceof DOMException&&x.name==="AbortError"||(l.textContent=`Could not load kernels: ${String(x)}`)})},f;s.addEventListener("input",()=>{clearTimeout(f),f=setTimeout(v,qo)}),i.addEventListener("change",v);let h=await Te(e,t,Un,n,r,{q:s.value.trim(),groupBy:m()});p(h);let k=h.devices.map(w=>`rank ${w.rank} GPU ${w.device}: ${w.tensor_core_pct.toFixed(1)} % of kernel time on Tensor Cores (by name)`);return o("div",{class:"overview","data-testid":"kernels"},o("section",{class:"panel"},o("h2",{},"GPU utilization and est. SM efficiency"),es(h.devices,h.empty_reason),...k.map(w=>o("p",{class:"muted"},w))),o("section",{class:"panel"},o("h2",{},"Kernels"),o("div",{class:"controls"},s,i),l,c,d,u))}};var Ct={overview:"Overview",timeline:"Timeline",operators:"Operators",kernels:"Kernels",memory:"Memory",gpu:"GPU",modules:"Modules",python:"Python",tasks:"Tasks",distributed:"Distributed"};function ts(e,t){return typeof e!="number"?String(e):t==="ns"?g(e):t==="fraction"?`${(e*100).toFixed(1)} %`:t==="x"?`${e.toFixed(2)}×`:t==="%"?`${e.toFixed(1)} %`:t==="bytes"?T(e):t==="bytes/step"?`${T(e)} per step`:t==="step"?`step ${e}`:t?`${Number.isInteger(e)?y(e):e.toPrecision(3)} ${t}`:String(e)}function Vn(e){let t=e.impact;if(!t||t.ns_per_step===null)return`No step-time estimate (${t?.basis??"not estimated"})`;let n=t.share_of_step===null?"":` (${(t.share_of_step*100).toFixed(0)} % of the step)`;return`Saves ≈ ${g(t.ns_per_step)} per step${n}`}function jn(e,t,n=3){let r=e.filter(a=>!a.explained_by&&a.impact?.ns_per_step!=null).sort((a,s)=>(s.impact?.ns_per_step??0)-(a.impact?.ns_per_step??0)).slice(0,n);return r.length===0?null:o("section",{class:"panel","data-testid":"savings"},o("h2",{},"What would save the most"),o("ol",{class:"savings"},...r.map(a=>{let s=o("button",{type:"button",class:"link-button"},a.title);return s.addEventListener("click",()=>t(a.view.tab,a.view.params)),o("li",{"data-testid":"saving","data-key":a.key},o("strong",{class:"saving-amount"},Vn(a))," — ",s)})))}function Yn(e,t,n=[]){let r=e.view.tab,a=o("button",{type:"button",class:"link-button","data-testid":"finding-link","data-tab":r},`Open in ${Ct[r]??r}`);a.addEventListener("click",()=>t(r,e.view.params));let s=Object.entries(e.evidence).map(([i,l])=>o("li",{},`${i.replaceAll("_"," ")}: ${ts(l.value,l.unit)}`));return o("li",{class:`finding severity-${e.severity}`,"data-testid":"finding","data-kind":e.kind,"data-key":e.key,"data-severity":e.severity},o("div",{class:"finding-head"},o("span",{class:`severity-badge severity-${e.severity}`},e.severity),o("strong",{class:"finding-title"},e.title)),o("p",{class:"finding-impact","data-testid":"finding-impact",title:e.impact?.basis??""},Vn(e)),o("ul",{class:"finding-evidence"},...s),o("p",{class:"finding-fix"},e.recommendation),a,n.length===0?null:o("details",{class:"finding-symptoms","data-testid":"finding-symptoms"},o("summary",{},`${n.length===1?"1 finding":`${n.length} findings`} this explains`),o("ol",{class:"findings"},...n.map(i=>Yn(i,t)))))}function $e(e,t){let n=new Set(e.map(a=>a.key)),r=e.length===0?o("p",{class:"muted","data-testid":"no-findings"},"No findings: nothing in this run crossed a threshold."):o("ol",{class:"findings","data-testid":"findings"},...e.filter(a=>!a.explained_by||!n.has(a.explained_by)).map(a=>Yn(a,t,e.filter(s=>s.explained_by===a.key))));return o("section",{class:"panel"},o("h2",{},"Findings"),r)}function Zn(e,t,n,r){return M(`./memory?${P(e,{rank:t})}`,n,r)}function Jn(e,t,n,r,a){let s=P(e,{rank:t,device:n,start:r?.start??null,end:r?.end??null});return M(`./memory/operators?${s}`,a)}function Qn(e,t,n,r){return M(`./snapshot?${P(e,{file:t})}`,n,r)}function er(e,t,n,r,a,s,i){let l=P(e,{file:t,device:n,start:r,end:a,width_px:s});return M(`./snapshot/tile?${l}`,i)}function tr(e,t,n,r,a){return M(`./snapshot/allocation?${P(e,{file:t,device:n,index:r})}`,a)}var rr="(outside any operator)";function Re(e,t,n){return{key:e,label:t,title:n,numeric:!0,value:r=>r[e],format:r=>T(r[e])}}function Lt(e,t,n){return{key:e,label:t,...n===void 0?{}:{title:n},numeric:!0,value:r=>r[e],format:r=>y(r[e])}}var ns=[{key:"name",label:"operator",numeric:!1,value:e=>e.name||rr},Lt("calls","calls","Calls with memory events in them"),Lt("allocations","allocations","Allocations in the operator and the operators inside it"),Re("allocation_bytes","allocated","Bytes allocated in it and the operators inside it (frees not counted)"),Re("self_allocation_bytes","self allocated","Bytes allocated by the operator itself, not an operator inside it"),Lt("frees","frees"),Re("increase_bytes","increase","Allocated minus freed, with the operators inside it"),Re("self_increase_bytes","self increase","Allocated minus freed by the operator itself"),Re("peak_bytes","peak while running","The most allocated on the device while a call ran")];function rs(e){let t=e.ranks[0];return!t||t.bucket!==1?[]:t.steps.map((n,r)=>({step:n,t:t.t_ns[r]??0}))}function nr(e,t){return(BigInt(e)+BigInt(Math.round(t))).toString()}function ar(e,t){let n=o("section",{class:"panel","data-testid":"operator-memory",hidden:!0},o("h2",{},"Memory by operator")),r=rs(e),a=o("select",{"data-testid":"operator-memory-device","aria-label":"Device"}),s=v=>r.map((f,h)=>{let k=o("option",{value:String(h)},`step ${f.step}`);return k.selected=h===v,k}),i=o("select",{"data-testid":"operator-memory-from","aria-label":"From step"},...s(0)),l=o("select",{"data-testid":"operator-memory-to","aria-label":"To step"},...s(r.length-1)),c=o("p",{class:"muted","data-testid":"operator-memory-caption"}),u=o("div",{class:"table-scroll"}),d=new AbortController,m=()=>{let v=Number(i.value),f=Number(l.value);if(r.length===0||v===0&&f===r.length-1)return null;let[h,k]=v<=f?[v,f]:[f,v],w=r[h-1];return{start:w?nr(e.origin_ns,w.t+1):"0",end:nr(e.origin_ns,r[k]?.t??0)}},p=async()=>{d.abort(),d=new AbortController;let v=AbortSignal.any([t,d.signal]);try{let f=await Jn(e.run,e.rank,a.value||null,m(),v);if(f.devices.length===0)return;n.hidden=!1,a.options.length===0&&(a.replaceChildren(...f.devices.map(w=>o("option",{value:w},w))),a.value=f.device??"");let h=f.rows.length<f.total_rows?`the ${y(f.rows.length)} largest of `:"",k=f.start_ns===null?"over the whole trace":"in the chosen steps";c.textContent=`${h}${y(f.total_rows)} operators by bytes allocated on ${f.device??"—"}, ${k}.`,u.replaceChildren(f.rows.length===0?o("p",{class:"muted","data-testid":"operator-memory-empty"},f.empty_reason??""):$({columns:ns,rows:f.rows,testId:"operator-memory-table",rowTestId:"operator-memory-row",rowName:w=>w.name||rr,pageSize:X}))}catch(f){if(f instanceof DOMException&&f.name==="AbortError")return;n.hidden=!1;let h=f instanceof Error?f.message:String(f);u.replaceChildren(o("p",{class:"error",role:"alert"},`Could not load the operator table: ${h}`))}};for(let v of[a,i,l])v.addEventListener("change",()=>{p()});let b=(v,f)=>{let h=r.flatMap((x,I)=>x.step>=Math.ceil(v)&&x.step<=Math.floor(f)?[I]:[]),[k,w]=[h[0],h.at(-1)];k===void 0||w===void 0||(i.value=String(k),l.value=String(w),p())};return n.append(o("div",{class:"controls"},o("label",{},"Device ",a),r.length>1?o("label",{},"Steps ",i," to ",l):null),c,u),p(),{element:n,showSteps:b}}function je(e){let t=2166136261;for(let n=0;n<e.length;n+=1)t^=e.charCodeAt(n),t=Math.imul(t,16777619);return(t>>>0)%40}function Ye(e){return Array.from({length:40},(t,n)=>{let r=Math.round(n*137.508%360),a=(e?36:72)+n%3*4;return`hsl(${r} ${e?40:55}% ${a}%)`})}function Ee(){let e=getComputedStyle(document.documentElement),t=r=>e.getPropertyValue(r).trim(),n=document.documentElement.dataset.theme==="dark";return{dark:n,background:t("--bg"),surface:t("--surface"),text:t("--fg"),mutedText:t("--fg-muted"),border:t("--border"),grid:t("--grid"),accent:t("--accent"),boxText:n?"#f5f5f5":"#212121",boxes:Ye(n)}}function At(e){return e.end-e.start}function ae(e,t){let n=At(t),r=Math.min(n,Math.max(200,At(e))),a=Math.min(Math.max(e.start,t.start),t.end-r);return{start:a,end:a+r}}function or(e,t,n,r){let a=t-(t-e.start)*n,s=t+(e.end-t)*n;return ae({start:a,end:s},r)}function sr(e,t,n){return ae({start:e.start+t,end:e.end+t},n)}function Ze(e,t,n,r){let a=Math.max(t-e,200)*n;return ae({start:e-a,end:t+a},r)}function ir(e,t,n,r){if(t>=e.start&&n<=e.end)return e;let a=At(e);if(n-t>a*.8)return Ze(t,n,.1,r);let s=(t+n)/2;return ae({start:s-a/2,end:s+a/2},r)}function Je(e,t){let n=Math.max(t-e,200)*.02;return{start:e-n,end:t+n}}var as=3,os=.0015,ss=16,is=400,ls=1,cs=2,ds=.8,us=.1,ms=Math.log(10),ps=1,hs=.05;function fs(e){if(e.ctrlKey||e.metaKey||e.altKey)return null;let t=e.key.toLowerCase();return t==="w"||t==="a"||t==="s"||t==="d"?t:null}function lr(e,t){return t===ls?e*ss:t===cs?e*is:e}function bs(e,t,n){let r=lr(e,n),a=lr(t,n);return Math.abs(r)>Math.abs(a)?{kind:"pan",px:r}:{kind:"zoom",factor:Math.exp(a*os)}}function cr(e,t){if(e==="w"||e==="s"){let r=t===null?ds:Math.exp(-ms*t);return{kind:"zoom",factor:e==="w"?r:1/r}}let n=t===null?us:ps*t;return{kind:"pan",fraction:e==="d"?n:-n}}function gs(e,t){return Math.min(hs,(e-t)/1e3)}function Ce(e,t,n,r){return e.start+(t-n)/Math.max(1,r)*(e.end-e.start)}function Le(e,t){return(e.end-e.start)/Math.max(1,t)}function Qe(e,t,n,r,a,s){let i=t===null?(e.start+e.end)/2:Ce(e,t,n,r);return or(e,i,a,s)}function et(e,t,n,r){return sr(e,t*Le(e,n),r)}function ys(e,t,n){let r=new Set,a=0,s=l=>{l.kind==="zoom"?t.zoomAt(n(),l.factor):t.panBy(l.fraction*t.timeAreaWidth())},i=l=>{if(r.size===0)return;let c=gs(l,a);a=l;for(let u of r)s(cr(u,c));requestAnimationFrame(i)};e.addEventListener("keydown",l=>{if(l.key==="Escape"){t.escape?.();return}let c=fs(l);c!==null&&(l.preventDefault(),!(l.repeat||r.has(c))&&(s(cr(c,null)),r.add(c),r.size===1&&(a=performance.now(),requestAnimationFrame(i))))}),e.addEventListener("keyup",l=>{r.delete(l.key.toLowerCase())}),e.addEventListener("blur",()=>r.clear())}function tt(e,t,n){let r=n.timeAreaLeft,a=null;n.keys&&ys(e,t,()=>a),e.addEventListener("wheel",i=>{if(i.offsetX<r)return;i.preventDefault();let l=bs(i.deltaX,i.deltaY,i.deltaMode);l.kind==="pan"?t.panBy(l.px):t.zoomAt(i.offsetX,l.factor)},{passive:!1});let s=null;e.addEventListener("pointerdown",i=>{i.button===0&&(e.setPointerCapture(i.pointerId),s={startX:i.offsetX,lastX:i.offsetX,moved:!1})}),e.addEventListener("pointermove",i=>{if(a=i.offsetX>=r?i.offsetX:null,s===null){t.hoverAt(i.offsetX,i.offsetY);return}Math.abs(i.offsetX-s.startX)>as&&(s.moved=!0),s.moved&&(t.panBy(s.lastX-i.offsetX),s.lastX=i.offsetX)}),e.addEventListener("pointerup",i=>{s!==null&&!s.moved&&t.clickAt(i.offsetX,i.offsetY),s=null}),e.addEventListener("pointercancel",()=>{s=null}),e.addEventListener("pointerleave",()=>{a=null,t.hoverEnd()})}var Ae=280,dr=18,vs=60;function ws(e){let{bands:t,steps:n}=e,r=[],a=0;return t.id.forEach((s,i)=>{let l=t.start[i]??0,c=t.y0[i]??0,u=t.steps[i]??0;for(let d=0;d<u;d+=1,a+=1){let m=e.start+((n.px[a]??0)+1)*e.ns_per_px;r.push({band:i,t0:l,t1:m,y:c}),l=m,c=n.y[a]??c}r.push({band:i,t0:l,t1:t.end[i]??l,y:c})}),r}function mr(e){return`${e.filename}:${e.line} (${e.name})`}function ur(e,t,n){return e.length===0&&t<=0?o("p",{class:"muted"},"No stack recorded."):o("ol",{class:"stack-frames","data-testid":n},...e.map(r=>o("li",{},mr(r))),t>0?o("li",{class:"muted stack-more","data-testid":`${n}-more`},`… and ${y(t)} more ${t===1?"frame":"frames"} (not shown)`):null)}var nt=class{constructor(t,n,r,a,s){this.run=t;this.file=n;this.device=r;this.timeUnit=a;this.signal=s;let i=r.time?Math.max(r.time.end,r.time.start+1):1;this.bounds={start:r.time?.start??0,end:i},this.window=this.bounds;let l=o("button",{type:"button","data-testid":"snapshot-reset"},"Reset zoom");l.addEventListener("click",()=>this.show(this.bounds)),this.element=o("div",{class:"snapshot-viewer","data-testid":"snapshot-viewer"},o("div",{class:"snapshot-toolbar"},l,this.status,o("span",{class:"muted hint"},"Wheel: zoom · drag: pan · click a block: details")),this.stage,this.hover,this.details),this.attachInput(),new ResizeObserver(()=>{let c=Math.floor(this.stage.clientWidth);c===0||c===this.width||(this.width=c,this.draw(),this.schedule())}).observe(this.stage),s.addEventListener("abort",()=>this.fetching.abort(),{once:!0})}run;file;device;timeUnit;signal;element;canvas=o("canvas",{class:"snapshot-canvas","data-testid":"snapshot-canvas",tabindex:0,"aria-label":"Live allocations over time; wheel to zoom, drag to pan, click for details"});stage=o("div",{class:"snapshot-stage"},this.canvas);status=o("span",{class:"muted","data-testid":"snapshot-status"});hover=o("span",{class:"snapshot-hover","data-testid":"snapshot-hover"});details=o("div",{class:"snapshot-details","data-testid":"snapshot-allocation"},o("p",{class:"muted"},"Click a block for its size, lifetime and stack."));bounds;window;drawn=null;width=0;fetching=new AbortController;detailsFetch=new AbortController;timer;formatTime(t){return this.timeUnit==="ns"?ie(t):`entry ${Math.round(t)}`}formatSpan(t){return this.timeUnit==="ns"?g(t):`${Math.round(t)} entries`}show(t){this.window=ae(t,this.bounds),this.draw(),this.schedule()}schedule(){clearTimeout(this.timer),this.timer=setTimeout(()=>{this.load()},vs)}async load(){if(this.width===0||this.signal.aborted)return;this.fetching.abort(),this.fetching=new AbortController;let{start:t,end:n}=this.window,r=Math.floor(t),a=Math.max(Math.ceil(n),r+1);try{let s=await er(this.run,this.file,this.device.device,r,a,this.width,this.fetching.signal),i=Math.max(1,...s.pixels.total_max);this.drawn={tile:s,pieces:ws(s),yMax:i},this.status.textContent=`${s.drawn} of ${s.visible} allocations drawn`+(s.merged?` (${s.merged} too small or too short: grey)`:"")+` · ${this.formatTime(r)} – ${this.formatTime(a)}`,this.draw()}catch(s){if(s instanceof DOMException&&s.name==="AbortError")return;this.status.textContent=`Could not load this window: ${String(s)}`}}x(t){return(t-this.window.start)/(this.window.end-this.window.start)*this.width}draw(){let t=window.devicePixelRatio||1,n=this.width;this.canvas.width=Math.round(n*t),this.canvas.height=Math.round(Ae*t),this.canvas.style.width=`${n}px`,this.canvas.style.height=`${Ae}px`;let r=this.canvas.getContext("2d");if(!r||n===0)return;let a=Ee(),s=Ye(a.dark);r.setTransform(t,0,0,t,0,0),r.fillStyle=a.background,r.fillRect(0,0,n,Ae);let i=Ae-dr,l=this.drawn;if(l){let{tile:d,pieces:m,yMax:p}=l,b=(i-12)/p;r.fillStyle=a.grid,d.pixels.total_max.forEach((v,f)=>{let h=d.pixels.drawn_max[f]??0;if(v<=h)return;let k=this.x(d.start+f*d.ns_per_px),w=this.x(d.start+(f+1)*d.ns_per_px);r.fillRect(k,i-v*b,Math.max(1,w-k),(v-h)*b)});for(let v of m){let f=d.bands.size[v.band]??0,h=d.labels[d.bands.label[v.band]??0]??"",k=Math.max(-1,this.x(v.t0)),w=Math.min(n+1,this.x(v.t1));if(w<=k)continue;r.fillStyle=s[je(h)]??a.accent;let x=i-(v.y+f)*b;r.fillRect(k,x,Math.max(w-k,.5),Math.max(f*b,.5))}r.fillStyle=a.mutedText,r.font="11px sans-serif",r.textBaseline="top",r.fillText(T(p),4,2)}r.strokeStyle=a.border,r.beginPath(),r.moveTo(0,i+.5),r.lineTo(n,i+.5),r.stroke(),r.fillStyle=a.mutedText,r.font="11px sans-serif",r.textBaseline="top",r.fillText(this.formatTime(this.window.start),4,i+4);let c=this.formatTime(this.window.end);r.fillText(c,n-r.measureText(c).width-4,i+4);let u=`${this.formatSpan(this.window.end-this.window.start)} shown`;r.fillText(u,(n-r.measureText(u).width)/2,i+4)}bandAt(t,n){let r=this.drawn;if(!r)return null;let a=Ae-dr,s=(a-12)/r.yMax,i=Ce(this.window,t,0,this.width),l=(a-n)/s,c=Le(this.window,this.width);for(let u of r.pieces){let d=r.tile.bands.size[u.band]??0;if(!(i<u.t0-c||i>=u.t1+c)&&l>=u.y&&l<u.y+Math.max(d,2/s))return u.band}return null}describe(t){let n=this.drawn?.tile;if(!n)return"";let r=n.labels[n.bands.label[t]??0]??"";return`${T(n.bands.size[t]??0)} · ${r}`}async select(t){let r=this.drawn?.tile?.bands.id[t];if(r!==void 0){this.detailsFetch.abort(),this.detailsFetch=new AbortController,this.details.replaceChildren(o("p",{class:"muted"},`Loading allocation ${r}…`));try{let a=await tr(this.run,this.file,this.device.device,r,this.detailsFetch.signal);this.details.replaceChildren(this.allocationView(a))}catch(a){if(a instanceof DOMException&&a.name==="AbortError")return;this.details.replaceChildren(o("p",{role:"alert"},String(a)))}}}allocationView(t){let n=(r,a)=>o("tr",{},o("th",{},r),o("td",{"data-field":r},a));return o("div",{},o("h3",{},`Allocation ${t.index}: ${T(t.size)}`),o("table",{class:"details-table"},o("tbody",{},n("size",`${T(t.size)} (${t.size.toLocaleString("en-US")} B)`),n("address",`0x${t.addr.toString(16)}`),n("allocated",t.allocated_before_trace?"before the trace began":this.formatTime(t.t_alloc)),n("freed",t.live_at_snapshot?"still live at the snapshot":this.formatTime(t.t_free)),n("lifetime",`${this.formatSpan(t.lifetime)}${t.allocated_before_trace||t.live_at_snapshot?" or more":""}`),n("stream",String(t.stream)),n("first user frame",t.first_user_frame?mr(t.first_user_frame):"—"))),o("h4",{},"Allocated at"),ur(t.frames,t.more_frames??0,"allocation-frames"),t.free_frames.length?o("h4",{},"Freed at"):null,t.free_frames.length?ur(t.free_frames,t.more_free_frames??0,"free-frames"):null)}attachInput(){tt(this.canvas,{zoomAt:(t,n)=>this.show(Qe(this.window,t,0,this.width,n,this.bounds)),panBy:t=>this.show(et(this.window,t,this.width,this.bounds)),timeAreaWidth:()=>this.width,clickAt:(t,n)=>{let r=this.bandAt(t,n);r!==null&&this.select(r)},hoverAt:(t,n)=>{let r=this.bandAt(t,n);this.hover.textContent=r===null?"":this.describe(r)},hoverEnd:()=>{this.hover.textContent=""}},{timeAreaLeft:0,keys:!1})}};var ks=["allocated","reserved","peak","rss"],xs={allocated:"allocated",reserved:"reserved",peak:"peak allocated",rss:"RSS"},_s="#d62728";function Pe(e,t,...n){return o("section",{class:"panel","data-testid":t},o("h2",{},e),...n)}function Ss(e){return e instanceof DOMException&&e.name==="AbortError"}function Ts(e,t){let n={x:[],y:[]};return t.forEach((r,a)=>{let s=e[a];r!==null&&s!==void 0&&(n.x.push(s),n.y.push(r))}),n}function Ms(e,t){let n=t.filter(a=>a.rank===e.rank).length>1;return`${t.length>1&&new Set(t.map(a=>a.rank)).size>1?`rank ${e.rank} `:""}${n&&e.source==="trace"?"trace ":""}`}function pr(e,t){let n=[],r=0;for(let a of e){let s=Ms(a,e);for(let l of ks){let c=a[l];if(!c)continue;let{x:u,y:d}=Ts(a[t],c);if(u.length===0)continue;let m=`${s}${xs[l]}`;n.push({label:m,color:B(r),x:u,y:d}),r+=1}let i=a.trend;t==="steps"&&i?.leak&&n.push({label:`${s}leak trend (${T(i.slope)}/step)`,color:_s,x:[i.first_step,i.last_step],y:[i.start_level,i.end_level],dashed:!0})}return n}function $s(e,t){let n=e.ranks;if(n.length===0)return[o("p",{class:"muted","data-testid":"no-memory"},e.empty_reason??"No MemorySampler records in this run. Wrap the training loop in “with MemorySampler(timer):” (from collectors) to record memory every step.")];let r=new Set(n.filter(h=>h.trend?.leak).map(h=>h.rank)),a=h=>h.rss?.filter(k=>k!==null).at(-1)??null,{charted:s,note:i}=re(n,h=>h.max_peak?.bytes??a(h),"peak allocation (the last RSS without CUDA)",r),l=Math.max(...n.map(h=>h.bucket)),c=l>1?o("p",{class:"muted"},`Each point is the mean of ${l} consecutive steps (peak: their maximum).`):null,u=new Set(n.filter(h=>h.source!=="trace").map(h=>h.rank)),d=n.filter(h=>h.source==="trace").map(h=>h.rank),m=d.filter(h=>!u.has(h)),p=d.filter(h=>u.has(h)),b=d.length>0?o("p",{class:"muted","data-testid":"memory-from-traces"},(m.length>0?`From torch.profiler's memory events (profile_memory=True), not MemorySampler: rank(s) ${m.join(", ")}. `:"")+(p.length>0?`Rank(s) ${p.join(", ")} have both: MemorySampler's series and, marked “trace”, torch.profiler's memory events over the traced steps. `:"")+"From traces: allocated and reserved as they stood at each step's end; peak: the most allocated within the step."):null,v=j({series:pr(s,"steps"),height:280,xLabel:"step",formatX:h=>String(h),formatY:T,yTickFormat:ue,testId:"memory-step-chart",onRangeSelect:t}),f=j({series:pr(s,"t_ns"),height:220,xLabel:"time since the first sample",formatX:g,formatY:T,yTickFormat:ue,testId:"memory-time-chart"});return[Pe("Memory per step","memory-steps",b,i,v,c,o("p",{class:"muted"},"Drag across the chart to see what each operator allocated in those steps (Memory by operator, below).")),Pe("Memory over time","memory-time",f)]}var Rs=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"device",label:"device",numeric:!1,value:e=>e.device},{key:"source",label:"source",numeric:!1,value:e=>e.source},{key:"device_total",label:"device memory",numeric:!0,value:e=>e.device_total,format:e=>T(e.device_total)},{key:"peak",label:"peak allocated",title:"The highest peak (else allocated) any step recorded",numeric:!0,value:e=>e.max_peak?.bytes??null,format:e=>T(e.max_peak?.bytes)},{key:"peak_share",label:"% of device",numeric:!0,value:e=>(e.max_peak?.share??null)===null?null:(e.max_peak?.share??0)*100,format:e=>F(e.max_peak?.share===null||!e.max_peak?null:e.max_peak.share*100)},{key:"unused",label:"reserved above peak",title:"Median over steps after warm-up of reserved memory the peak never used (fragmentation)",numeric:!0,value:e=>e.fragmentation?.unused??null,format:e=>e.fragmentation?`${T(e.fragmentation.unused)} (${(e.fragmentation.unused_fraction*100).toFixed(0)} %)`:"—"},{key:"retries",label:"alloc retries",numeric:!0,value:e=>e.fragmentation?.retries??null,format:e=>y(e.fragmentation?.retries)},{key:"slope",label:"trend per step",title:"Theil-Sen slope after warm-up (allocated on CUDA, else RSS), with its 95 % interval",numeric:!0,value:e=>e.trend?.slope??null,format:e=>e.trend?`${T(e.trend.slope)} [${T(e.trend.low)}, ${T(e.trend.high)}]`:"—"}],Es=[{key:"label",label:"first user frame",numeric:!1,value:e=>e.label},{key:"peak_bytes",label:"live at peak",numeric:!0,value:e=>e.peak_bytes,format:e=>`${T(e.peak_bytes)} (${y(e.peak_count)})`},{key:"snapshot_bytes",label:"live at snapshot",numeric:!0,value:e=>e.snapshot_bytes,format:e=>`${T(e.snapshot_bytes)} (${y(e.snapshot_count)})`},{key:"trace_bytes",label:"allocated in trace",numeric:!0,value:e=>e.trace_bytes,format:e=>`${T(e.trace_bytes)} (${y(e.trace_count)})`}],Cs=[{key:"index",label:"allocation",numeric:!0,value:e=>e.index},{key:"size",label:"size",numeric:!0,value:e=>e.size,format:e=>T(e.size)},{key:"frame",label:"first user frame",numeric:!1,value:e=>e.first_user_frame?`${e.first_user_frame.filename}:${e.first_user_frame.line} (${e.first_user_frame.name})`:"—"}];function Ls(e,t,n,r){let a=new nt(e,t.file,n,t.time_unit,r),s=n.by_first_user_frame.length;return o("div",{class:"snapshot-device","data-testid":"snapshot-device"},o("p",{class:"muted"},`Device ${n.device}: ${T(n.reserved_bytes)} reserved, ${T(n.allocated_bytes)} allocated at the snapshot; at most ${T(n.peak.live_bytes)} live at once (with ${T(n.peak.reserved_bytes)} reserved); ${y(n.allocations)} allocations.`),o("h3",{},"What holds the peak, by first user frame"),o("div",{class:"table-scroll"},$({columns:Es,rows:n.by_first_user_frame,testId:"peak-frames",rowTestId:"peak-frame",rowName:i=>i.label})),s<n.frames_total?o("p",{class:"muted"},`The ${s} of ${n.frames_total} groups with the most memory at the peak.`):null,o("h3",{},"Largest allocations at the peak"),o("div",{class:"table-scroll"},$({columns:Cs,rows:n.largest_at_peak,testId:"peak-largest",rowTestId:"peak-allocation",rowName:i=>String(i.index)})),o("h3",{},"Allocations over time"),a.element)}function As(e,t,n){let r=t.devices,a=o("div",{}),s=o("select",{"data-testid":"snapshot-device-select","aria-label":"Device"},...r.map(c=>o("option",{value:String(c.device)},`cuda:${c.device}`))),i=()=>{let c=r.find(u=>String(u.device)===s.value)??r[0];a.replaceChildren(c?Ls(e,t,c,n):o("p",{class:"muted"},"This snapshot holds no device."))};s.addEventListener("change",i),i();let l=t.trace_entries.oom??0;return o("div",{"data-testid":"snapshot-summary"},o("p",{},`${t.format} snapshot, ${T(t.reserved_bytes)} reserved, ${T(t.allocated_bytes)} allocated, free blocks ${(t.fragmentation.external*100).toFixed(0)} % fragmented`+(l?`; ${l} out-of-memory error(s) in its trace`:"")+(t.time_unit==="index"?"; no times recorded (entries in order)":"")),r.length>1?o("label",{},"Device ",s):null,a)}function Ps(e,t,n,r){if(t.length===0)return Pe("Memory snapshots","snapshots",o("p",{class:"muted","data-testid":"no-snapshots"},"No memory snapshots in this run. Record CUDA allocator history around a few steps with MemorySnapshotter (ENABLE_MEMORY_SNAPSHOT=1) to see what holds the peak, by line of code, and every allocation over time."));let a=o("select",{"data-testid":"snapshot-select","aria-label":"Snapshot"},...t.map(c=>o("option",{value:c.file},`${c.file} (${c.rank===null?"rank unknown":`rank ${c.rank}`}, ${T(c.bytes)})`)));a.value=t.some(c=>c.file===n)?n??"":t[0]?.file??"";let s=o("div",{class:"snapshot-body"}),i=new AbortController,l=async()=>{i.abort(),i=new AbortController;let c=AbortSignal.any([r,i.signal]),u=a.value;s.replaceChildren(o("p",{class:"muted"},`Loading ${u}…`));try{let d=await Qn(e,u,c,m=>{s.replaceChildren(o("p",{class:"muted"},`Loading ${u}… ${Math.round(m.fraction*100)} %`))});s.replaceChildren(As(e,d,c))}catch(d){if(Ss(d))return;s.replaceChildren(o("div",{class:"error",role:"alert","data-testid":"snapshot-error"},o("strong",{},`Could not read ${u}`),o("p",{},d instanceof Error?d.message:String(d))))}};return a.addEventListener("change",()=>{l()}),l(),Pe("Memory snapshots","snapshots",o("label",{},"Snapshot ",a),s)}function Ns(e){return e.length===0?null:o("section",{class:"warnings","data-testid":"warnings",role:"status"},o("h2",{},`${e.length} warning(s) while reading memory data`),o("ul",{},...e.map(t=>o("li",{},t))))}function Hs(e,t,n,r){let a=e.ranks.length>0?Pe("Peak and fragmentation per rank","memory-ranks",o("div",{class:"table-scroll"},$({columns:Rs,rows:e.ranks,testId:"memory-rank-table",rowTestId:"memory-rank-row",rowName:i=>String(i.rank)}))):null,s=ar(e,r);return o("div",{class:"memory","data-testid":"memory"},Ns(e.warnings),$e(e.findings,t),...$s(e,(i,l)=>s.showSteps(i,l)),a,s.element,Ps(e.run,e.snapshots,n,r))}var hr={id:"memory",label:"Memory",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,navigate:a,params:s}){let i=await Zn(e,t,n,r),l=typeof s.snapshot=="string"?s.snapshot:null;return Hs(i,a,l,n)}};function fr(e,t,n,r){return M(`./modules?${P(e,{rank:t})}`,n,r)}function br(e,t,n,r,a){return M(`./module_steps?${P(e,{rank:t,path:n,phase:r})}`,a)}function gr(e){let t=new Set(e.map(a=>a.path)),n=[],r=new Map;for(let a of e){if(a.parent===null||!t.has(a.parent)){n.push(a);continue}let s=r.get(a.parent);s?s.push(a):r.set(a.parent,[a])}return{roots:n,children:r}}function yr(e,t){let n=new Set;return e.filter(r=>r.parent!==null&&(t.has(r.parent)||n.has(r.parent))?(n.add(r.path),!1):!0)}function vr(e,t,n,r=.5){let a=[],s=new Map,i=u=>{let d=s.get(u.path);return d===void 0&&(d=Math.max(0,t(u)),d===0&&(d=l(e.children.get(u.path)??[])),s.set(u.path,d)),d},l=u=>u.reduce((d,m)=>d+i(m),0),c=(u,d,m,p,b)=>{let v=d;for(let f of u){let h=p>0?m*i(f)/p:0;if(h>=r){a.push({row:f,x:v,width:h,level:b});let k=e.children.get(f.path)??[];c(k,v,h,Math.max(i(f),l(k)),b+1)}v+=h}};return c(e.roots,0,n,l(e.roots),0),a}var Pt=20,Ds=6.5,Is=24;function Os(e,t){let n=Math.floor((t-6)/Ds);return t<Is||n<2?"":e.length<=n?e:`${e.slice(0,n-1)}…`}function Ws(e,t){let n=vr(e.tree,e.value,t),r=n.reduce((s,i)=>Math.max(s,i.level+1),0),a=R("svg",{width:t,height:r*Pt,class:"icicle-svg",role:"img","aria-label":"Module time as an icicle chart"});for(let{row:s,x:i,width:l,level:c}of n){let u=c*Pt,d=R("g",{class:s.path===e.selected?"icicle-cell selected":"icicle-cell","data-testid":"icicle-cell","data-path":s.path},R("title",{},e.tooltip(s)),R("rect",{x:i.toFixed(2),y:u,width:Math.max(l-1,.5).toFixed(2),height:Pt-1,fill:e.color(s)})),m=Os(e.label(s),l);m&&d.append(R("text",{class:"icicle-label",x:(i+3).toFixed(2),y:u+14},m)),d.addEventListener("click",()=>e.onSelect(s)),a.append(d)}return a}function wr(e){let t=o("div",{class:"icicle","data-testid":"module-icicle"}),n=0;return new ResizeObserver(()=>{let r=t.clientWidth;r===0||r===n||(n=r,t.replaceChildren(Ws(e,r)))}).observe(t),t}function kr(e,t){return e.length===0?null:`Backward timed on ${e.map(r=>{let a=t>1?` on rank ${r.rank}`:"";return`${y(r.timed)} of ${y(r.steps)} steps${a}`}).join(", ")} (ModuleProfiler's backward_every_n_steps): its calls, totals and shares are scaled from those steps to all covered steps, and per step it has values on those steps only.`}var Fs=200,Bs=2,Gs=16,Tr={forward:"forward",backward:"backward",total:"forward + backward"};function Nt(e){return e.path===""?`(model) ${e.type}`:e.name}function zs(e){return e instanceof DOMException&&e.name==="AbortError"}function rt(e,t){return e[t.phase]}function xr(e,t){let n=rt(e,t);return n?(t.time==="device"?n.gpu_total_ns:n.total_ns)??0:0}function Q(e,t,n,r,a=g){let s=i=>rt(i,r)?.[e]??null;return{key:e,label:t,title:n,numeric:!0,value:s,format:i=>a(s(i))}}function Us(e,t,n,r){let a={key:"name",label:"module",numeric:!1,value:u=>u.path,render:u=>{let d=!t.has(u.path),m=n(u)?o("button",{type:"button",class:"tree-toggle","data-testid":"module-toggle","aria-expanded":String(d),"aria-label":`${d?"Collapse":"Expand"} ${Nt(u)}`},d?"▾":"▸"):o("span",{class:"tree-toggle-space"});return m.addEventListener("click",p=>{p.stopPropagation(),r(u)}),o("span",{class:"tree-cell",style:`padding-left:${u.depth*Gs}px`,title:u.path},m,Nt(u))}},s={key:"type",label:"type",numeric:!1,value:u=>u.type},i=Q("calls","calls","Calls in this phase",e,y),l={key:"params",label:"params",title:"Parameters in its subtree (shared ones once)",numeric:!0,value:u=>u.params,format:u=>y(u.params)},c=Q("pct_of_step","% of step","Its time per covered step over the mean step time (docs/ANALYSIS.md)",e,F);return e.time==="device"?[a,s,i,Q("gpu_total_ns","device total","CUDA-event time of its calls",e),Q("gpu_mean_ns","device mean","Per call, in steps with device times",e),Q("total_ns","host total","Host time of its calls",e),l]:[a,s,i,Q("self_ns","self","Total minus the profiled modules called inside it",e),Q("total_ns","total","Time of its calls, nested modules included",e),Q("mean_ns","mean","Per call",e),Q("p95_ns","p95","Per call (from the recorded samples)",e),c,l]}function Ks(e){let t=e.steps.map(s=>{let i=s.step_time_ns===null?"":`, mean step ${g(s.step_time_ns)}`;return`rank ${s.rank}: ${y(s.steps)} steps${i}`}).join("; "),r=[(e.source==="collector"?"ModuleProfiler records: attribute paths, forward and backward calls.":"From torch.profiler traces: forward calls only (backward runs outside module calls).")+(t?` Covered steps — ${t}.`:"")],a=kr(e.backward_steps,e.steps.length);if(a&&r.push(" ",o("span",{"data-testid":"module-backward-steps"},a)),e.class_names&&r.push(o("strong",{"data-testid":"module-class-names"}," Names are class names with a per-class counter (Linear_3), not attribute paths; the tree comes from how calls nest. Record with collectors.ModuleProfiler for paths.")),e.total_rows>e.rows.length){let s=`${y(e.rows.length)} of ${y(e.total_rows)}`;r.push(` Showing the first ${s} modules.`)}return o("p",{class:"muted","data-testid":"module-note"},...r)}function Xs(e){let t=[];return e.backward||t.push("backward not profiled"),e.every_n_steps>1&&t.push(`profiled one step in ${e.every_n_steps}`),e.aggregate_steps>1&&t.push(`records aggregate ${e.aggregate_steps} steps`),e.gpu?.startsWith("off")&&t.push(`no device times: GPU timing ${e.gpu}`),e.max_depth!==null&&t.push(`modules to depth ${e.max_depth}`),e.include.length>0&&t.push(`only ${e.include.join(", ")}`),e.exclude.length>0&&t.push(`excluding ${e.exclude.join(", ")}`),t}function qs(e){return e.charAt(0).toUpperCase()+e.slice(1)+(e.endsWith(".")?"":".")}function Vs(e){let t=[];for(let n of e){let r=Xs(n);if(r.length===0&&n.compiled===null)continue;let a=n.ranks.length===1?"rank":"ranks",s=e.length>1?` (${a} ${n.ranks.join(", ")})`:"",i=r.length>0?`: ${r.join(" · ")}`:"";t.push(`${t.length>0?" ":""}ModuleProfiler${s}${i}.`),n.compiled!==null&&t.push(o("strong",{"data-testid":"module-compiled"},` ${qs(n.compiled)}`))}return t.length===0?null:o("p",{class:"muted","data-testid":"module-settings"},...t)}function js(e){return e.length===0?null:o("div",{class:"warnings",role:"status","data-testid":"module-warnings"},o("strong",{},"Some module records could not be read"),o("ul",{},...e.map(t=>o("li",{},t))))}function _r(e,t,n,r){let a=o("select",{"aria-label":e,"data-testid":t},...n.map(([s,i])=>o("option",{value:s},i)));return a.value=r,a}function Ys(e){return e?`inputs ${JSON.stringify(e.inputs)} → output ${JSON.stringify(e.output)}`:null}function Zs(e,t,n){let r=[];for(let l of e.series){let c=B(n.indexOf(l.rank)),u=t==="device"&&l.device_ns?l.device_ns:l.host_ns,d=l.steps.flatMap((m,p)=>{let b=u[p];return b==null?[]:[[m,b]]});d.length!==0&&r.push({label:`rank ${l.rank}${t==="device"&&l.device_ns?" (device)":""}`,color:c,x:d.map(([m])=>m),y:d.map(([,m])=>m)})}if(r.length===0)return o("p",{class:"muted","data-testid":"module-step-chart-empty"},"No per-step times: no step covers this module's calls.");let a=Math.max(...e.series.map(l=>l.bucket)),s=j({series:r,height:220,xLabel:"step",formatX:l=>String(l),formatY:g,yTickFormat:de,testId:"module-step-chart"});if(a===1)return s;let i=`Each point is the mean of ${a} consecutive steps.`;return o("div",{},s,o("p",{class:"muted"},i))}function Sr(e,t){let n=rt(e,t);if(!n)return`Not called in ${Tr[t.phase]}.`;let r=[`${y(n.calls)} calls`,`total ${g(n.total_ns)}`,`self ${g(n.self_ns)}`,`mean ${g(n.mean_ns)}`];return n.median_ns!==null&&r.push(`median ${g(n.median_ns)}`),n.std_ns!==null&&r.push(`std ${g(n.std_ns)}`),n.p95_ns!==null&&r.push(`p95 ${g(n.p95_ns)}`),n.gpu_total_ns!==null&&r.push(`device ${g(n.gpu_total_ns)}`),e.params!==null&&r.push(`${y(e.params)} params`),r.join(" · ")}function Js(e){return o("p",{class:"muted","data-testid":"modules-empty"},e??"No module calls in this run. Wrap the model in collectors.ModuleProfiler(model, timer) for forward and backward time per attribute path; or record traces with Lightning's PyTorchProfiler, or with profile_steps(..., with_stack=True) (torch.profiler's with_stack=True) in eager mode.")}var Mr={id:"modules",label:"Modules",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r}){let a=await fr(e,t,n,r),s=o("section",{class:"panel"},o("h2",{},"Modules")),i=Vs(a.settings);i&&s.append(i);let l=o("div",{class:"overview","data-testid":"modules"},s),c=js(a.warnings);if(a.rows.length===0)return s.append(Js(a.empty_reason)),c&&s.append(c),l;if(!a.rows.some(S=>S.forward||S.backward)){let S=t===null?"Modules are declared, but no calls are recorded yet.":`No module calls recorded on rank ${t}; select another rank.`;return s.append(o("p",{class:"muted","data-testid":"module-note"},S)),l}let u=N(),d=a.phases,m=u.get("modphase"),p={phase:m&&d.includes(m)?m:d.includes("total")?"total":"forward",time:a.device&&u.get("modtime")==="device"?"device":"host"},b=gr(a.rows),v=S=>(b.children.get(S.path)?.length??0)>0,f=new Set(a.rows.length<=Fs?[]:a.rows.filter(S=>S.depth>=Bs-1&&v(S)).map(S=>S.path)),h=a.steps.map(S=>S.rank),k=[...new Set(a.rows.map(S=>S.type))],w=a.rows.find(S=>S.path===u.get("modpath"))??null,x=_r("Phase","module-phase",d.map(S=>[S,Tr[S]]),p.phase),I=_r("Time","module-time",[["host","host time"],["device","device time"]],p.time);x.hidden=d.length<2,I.hidden=!a.device;let E=o("div"),_=o("div",{class:"table-scroll"}),C=o("div",{class:"module-detail","data-testid":"module-detail"}),K=new AbortController;n.addEventListener("abort",()=>K.abort());let z=()=>{let S=w?.path??null,A="[data-testid=icicle-cell], [data-testid=module-row]";for(let U of l.querySelectorAll(A)){let Y=U.getAttribute("data-path")??U.getAttribute("data-name");U.classList.toggle("selected",Y===S)}},q=async()=>{if(K.abort(),K=new AbortController,w===null){C.replaceChildren(o("p",{class:"muted"},"Click a module (a row or a cell) to see its time per step."));return}let S=w,A=o("h3",{},`${S.path===""?"(model)":S.path} · ${S.type}`);C.replaceChildren(A,o("p",{},Sr(S,p)),o("p",{class:"muted"},"Loading steps…"));try{let U=await br(e,t,S.path,p.phase,K.signal),Y=Ys(U.shapes);C.replaceChildren(A,o("p",{},Sr(S,p)),...Y?[o("p",{class:"muted"},Y)]:[],Zs(U,p.time,h))}catch(U){if(!zs(U)){let Y=`Could not load its steps: ${String(U)}`;C.replaceChildren(A,o("p",{role:"alert"},Y))}}},te=S=>{w=S,L({modpath:S.path}),z(),q()},ce=()=>{let S=$({columns:Us(p,f,v,A=>{f.has(A.path)?f.delete(A.path):f.add(A.path),ce()}).filter(A=>!A.numeric||a.rows.some(U=>A.value(U)!==null)),rows:yr(a.rows,f),testId:"module-table",rowTestId:"module-row",rowName:A=>A.path,rowClass:A=>A.path===w?.path?"selected":void 0,pageSize:X});S.addEventListener("click",A=>{let U=A.target instanceof Element?A.target.closest("tr[data-name]"):null,Y=U&&a.rows.find(Va=>Va.path===U.getAttribute("data-name"));Y&&te(Y)}),_.replaceChildren(S)},V=()=>{E.replaceChildren(wr({tree:b,value:S=>xr(S,p),label:Nt,tooltip:S=>{let A=rt(S,p),U=A?.pct_of_step==null?"":` · ${F(A.pct_of_step)} of step`;return`${S.path===""?"(model)":S.path} (${S.type}): ${g(xr(S,p))}${U}`},color:S=>B(k.indexOf(S.type)),selected:w?.path??null,onSelect:te})),ce(),q()};return x.addEventListener("change",()=>{p.phase=x.value,L({modphase:p.phase}),V()}),I.addEventListener("change",()=>{p.time=I.value==="device"?"device":"host",L({modtime:p.time==="device"?"device":null}),V()}),V(),s.append(Ks(a),...c?[c]:[],o("div",{class:"controls"},x,I),E,C,_),l}};function at(e,t,n,r,a,s){let i=`./operators?${P(e,{rank:t,group_by:n,limit:r})}`;return M(i,a,s)}var Qs=1e3,ei=10,ti=40;function ot(e,t,n){return H(e,t,r=>r[e],n)}var ni=[{key:"name",label:"operator",numeric:!1,value:e=>e.name,cellTitle:e=>e.name},{key:"input_dims",label:"input shapes",numeric:!1,value:e=>e.input_dims},{key:"call_stack",label:"call stack",title:"Where in your code (the innermost frame outside torch and the libraries); open for every frame",numeric:!1,value:e=>e.user_frame||e.call_stack[0]||"",render:ri},{key:"calls",label:"calls",numeric:!0,value:e=>e.calls,format:e=>y(e.calls)},ot("device_self_ns","device self","Kernels, copies and fills it launched itself"),ot("device_total_ns","device total","Device self of the op and everything nested in it"),ot("host_self_ns","host self","Host time minus its direct children (as key_averages)"),ot("host_total_ns","host total","Host time of its calls"),{key:"tensor_core_eligible",label:"Tensor Cores eligible",title:"Of the matmul / convolution / attention family that can run on Tensor Cores (by name)",numeric:!1,value:e=>e.tensor_core_eligible?"yes":"no"},$r("tensor_core_self_share","Tensor Cores self","Share of its device self time in Tensor-Core kernels"),$r("tensor_core_total_share","Tensor Cores total","Share of its device total time in Tensor-Core kernels")];function ri(e){return e.call_stack.length===0?o("span",{class:"muted"},"no call stack"):o("details",{class:"call-stack"},o("summary",{},e.user_frame||e.call_stack[0]||""),o("ol",{},...e.call_stack.map(t=>o("li",{},t))))}var Ht=["name","input_dims","call_stack"];function ai(){let e=N().get("opgroup");return Ht.find(t=>t===e)??"name"}function $r(e,t,n){return{key:e,label:t,title:n,numeric:!0,value:r=>r[e],format:r=>F(r[e]===null?null:r[e]*100)}}function oi(e,t){let n=N(),r=n.get("opsort"),a=n.get("opdir");return e.some(s=>s.key===r)&&(a==="asc"||a==="desc")?{key:r,direction:a}:{key:t?"device_self_ns":"host_self_ns",direction:"desc"}}function si(e,t){let n=e.some(r=>r.device_total_ns>0);return ni.filter(r=>(r.key===t||!Ht.slice(1).includes(r.key))&&(n||!(r.key.startsWith("device_")||r.key.startsWith("tensor_core"))))}function Rr(e){let t=e.input_dims||e.user_frame||e.call_stack[0]||"";return t===""?e.name:`${e.name} · ${t}`}function ii(e){let t=e.some(i=>i.device_self_ns>0),n=i=>t?i.device_self_ns:i.host_self_ns,r=[...e].sort((i,l)=>n(l)-n(i)).slice(0,ei),a=Math.max(1,...r.map(n)),s=Be(r.map(i=>i.name),r.map(Rr),ti);return o("div",{class:"top-bars","data-testid":"operator-bars"},o("p",{class:"muted"},`Top ${r.length} by ${t?"device":"host"} self time`),...r.map((i,l)=>o("div",{class:"top-bar-row"},o("span",{class:"top-bar-label",title:Rr(i)},s[l]??i.name),o("span",{class:"top-bar-track"},o("span",{class:"top-bar",style:`width: ${(n(i)/a*100).toFixed(2)}%`})),o("span",{class:"top-bar-value"},g(n(i))))))}var Er={id:"operators",label:"Operators",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,params:a}){let s=o("input",{type:"search",class:"search-input",placeholder:"Filter operators","aria-label":"Filter operators","data-testid":"operator-filter",value:String(a.q??N().get("opq")??"")}),i=o("select",{"aria-label":"Group by","data-testid":"operator-group"},o("option",{value:"name"},"by name"),o("option",{value:"input_dims"},"by name and input shapes"),o("option",{value:"call_stack"},"by name and call stack"));i.value=ai();let l=()=>Ht.find(x=>x===i.value)??"name",c=o("p",{class:"muted","data-testid":"operator-caption"}),u=o("p",{class:"muted","data-testid":"unattributed-device"}),d=o("div",{"data-testid":"operator-warnings"}),m=o("div"),p=o("div",{class:"table-scroll"}),b=o("div",{class:"table-scroll"}),v=o("p",{class:"muted","data-testid":"annotation-caption"}),f=[],h=()=>{let x=s.value.trim().toLowerCase(),I=f.filter(q=>x===""||q.name.toLowerCase().includes(x)),E=I.filter(q=>!q.annotation),_=I.filter(q=>q.annotation),C=si(f,l()),K=C.some(q=>q.key==="device_self_ns"),z=(q,te,ce)=>$({columns:C,rows:q,testId:te,rowTestId:ce,rowName:V=>V.name,sort:oi(C,K),onSortChange:V=>L({opsort:V.key,opdir:V.direction}),pageSize:X});m.replaceChildren(ii(E)),p.replaceChildren(z(E,"operator-table","operator-row")),v.textContent=_.length===0?"No annotations.":`${y(_.length)} annotations: profiler steps and record_function / MyTimer spans, which hold operators rather than being one.`,b.replaceChildren(..._.length===0?[]:[z(_,"annotation-table","annotation-row")]),L({opq:x===""?null:s.value})},k=new AbortController,w=async x=>{k.abort(),k=new AbortController;let I=x?n:k.signal,E=await at(e,t,l(),Qs,I,r);f=E.rows,c.textContent=E.total_rows===0&&E.empty_reason!==null?E.empty_reason:E.total_rows>E.rows.length?`Showing ${E.rows.length} of ${y(E.total_rows)} operators.`:`${y(E.total_rows)} operators.`;let _=E.unattributed_device;u.textContent=_.device_ns>0&&_.share!==null?`Device time without a launch in the traces: ${g(_.device_ns)} (${F(_.share*100)} of device time), in no operator's device time.`:"",d.replaceChildren(...E.warnings.map(C=>o("p",{class:"notice",role:"status"},C))),h()};return s.addEventListener("input",h),i.addEventListener("change",()=>{L({opgroup:l()==="name"?null:l()}),w(!1).catch(x=>{x instanceof DOMException&&x.name==="AbortError"||(c.textContent=`Could not load operators: ${String(x)}`)})}),await w(!0),o("div",{class:"overview","data-testid":"operators"},o("section",{class:"panel"},o("h2",{},"Operators"),o("div",{class:"controls"},s,i),d,c,m,p,u),o("section",{class:"panel","data-testid":"annotations"},o("h2",{},"Annotations"),v,b))}};function Cr(e,t,n){return M(`./findings?${P(e)}`,t,n)}function Lr(e,t,n,r){return M(`./breakdown?${P(e,{rank:t})}`,n,r)}var Dt=40,li=5,ci=.08;function di(e,t,n){let r=t.map((i,l)=>{let c=e.ns[i]??0,u=e.duration_ns>0?c/e.duration_ns:0;return o("span",{class:`breakdown-part category-${i}`,style:`width: ${(u*100).toFixed(3)}%; background: ${i==="idle"?"var(--grid)":B(l)}`,title:`${i}: ${g(c)} (${(u*100).toFixed(1)} %)`},c/n>=ci?g(c):"")}),a=e.step===null?"trace":`step ${e.step}`,s=`width: ${(100*e.duration_ns/n).toFixed(3)}%`;return o("div",{class:"breakdown-row","data-testid":"breakdown-bar"},o("span",{class:"breakdown-label"},a),o("span",{class:"breakdown-track"},o("span",{class:"breakdown-bar","aria-label":a,style:s},...r)),o("span",{class:"breakdown-total muted"},g(e.duration_ns)))}function ui(e,t){let n=de(e);return o("div",{class:"breakdown-row","data-testid":"breakdown-axis"},o("span",{class:"breakdown-label muted"},"time"),o("span",{class:"breakdown-ticks"},...e.map(r=>o("span",{class:"breakdown-tick",style:`left: ${(100*r/t).toFixed(3)}%`},n(r)))),o("span",{}))}function Ar(e){if(e.ranks.length===0)return o("p",{class:"muted"},"No traces in this run: record some steps with profile_steps to see what each step is made of.");let t=o("div",{class:"legend"},...e.categories.map((d,m)=>o("span",{class:"legend-item"},o("span",{class:"legend-swatch",style:`background: ${d==="idle"?"var(--grid)":B(m)}`}),d))),n=({steps:d})=>d.length?d.reduce((m,p)=>m+p.duration_ns,0)/d.length:null,{charted:r,note:a}=re(e.ranks,n,"mean traced step time"),s=r.map(({rank:d,steps:m})=>({rank:d,all:m.length,steps:m.slice(0,Dt)})),i=Math.max(1,...s.flatMap(({steps:d})=>d.map(m=>m.duration_ns))),{max:l,ticks:c}=Ke(0,i,li,!1),u=s.map(({rank:d,all:m,steps:p})=>o("div",{class:"breakdown-rank"},o("h3",{},`rank ${d}`),...p.map(b=>di(b,e.categories,l)),ui(c,l),m>Dt?o("p",{class:"muted"},`First ${Dt} of ${m} steps.`):null));return o("div",{class:"breakdown","data-testid":"breakdown"},a,t,...u)}function Pr(e,t,n,r){let a=new URLSearchParams({run:e});return t!==null&&a.set("rank",String(t)),M(`./summary?${a}`,n,r)}function mi(e){let t=n=>n.categories[e]??null;return{key:e,label:e,title:`Mean ${e} time per step, and its share of step time`,numeric:!0,value:n=>t(n)?.ns_per_step??null,format:n=>{let r=t(n);return r===null?"—":`${g(r.ns_per_step)} (${F(r.share*100)})`}}}function Nr(e){let t=e[0];if(t===void 0)return o("p",{class:"muted"},"No traced steps to summarize.");let n=[{key:"rank",label:"rank",numeric:!0,value:r=>r.rank},{key:"steps",label:"steps",numeric:!0,value:r=>r.steps,format:r=>y(r.steps),title:"Traced steps (or whole traces) broken down"},H("step_ns","step",r=>r.step_ns,"Mean traced step time"),...Object.keys(t.categories).map(mi)];return o("div",{class:"table-scroll"},$({columns:n,rows:e,testId:"execution-table",rowTestId:"execution-row",rowName:r=>String(r.rank)}))}var Hr={key:"total_ns",direction:"desc"},pi=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},{key:"host",label:"host",numeric:!1,value:e=>e.host,format:e=>e.host??"—"},{key:"pid",label:"pid",numeric:!0,value:e=>e.pid,format:e=>String(e.pid??"—")},{key:"status",label:"status",numeric:!1,value:e=>e.status},{key:"steps",label:"steps",numeric:!0,value:e=>e.steps,format:e=>y(e.steps)},{key:"step_source",label:"steps from",title:"MyTimer's steps, else the traces' ProfilerStep#N windows",numeric:!1,value:e=>e.step_source,format:e=>e.step_source??"—"},H("mean","mean step",e=>e.step_time_ns?.mean??null),H("p50","p50 step",e=>e.step_time_ns?.p50??null),H("p95","p95 step",e=>e.step_time_ns?.p95??null),H("max","max step",e=>e.step_time_ns?.max??null)],hi=H("device_mean","mean step (device)",e=>e.device_step_time_ns?.mean??null,"ProfilerStep windows run on to the end of the device work they launched (torch-tb-profiler's steps)"),fi=[{key:"tflops",label:"TFLOP/s",numeric:!0,value:e=>e.compute?.achieved_tflops??null,format:e=>bi(e.compute?.achieved_tflops),title:"Median achieved model TFLOP/s over the steps (FlopsCounter's count of one step)"},{key:"mfu",label:"MFU",numeric:!0,value:e=>e.compute?.mfu??null,format:e=>F(e.compute?.mfu===null||e.compute?.mfu===void 0?null:e.compute.mfu*100),title:"Median model FLOPs utilization: achieved FLOP/s over the device's peak for the dtype"}];function bi(e){return e==null?"—":e>=10?e.toFixed(0):e.toPrecision(2)}var gi=[{key:"rank",label:"rank",numeric:!0,value:e=>e.rank},H("compile_ns","compile time",e=>e.compile?.compile_ns??null),{key:"graphs",label:"graphs",numeric:!0,value:e=>e.compile?.graphs??null,format:e=>y(e.compile?.graphs)},{key:"recompiles",label:"recompiles",numeric:!0,value:e=>e.compile?.recompiles??null,format:e=>y(e.compile?.recompiles)},{key:"graph_breaks",label:"graph breaks",numeric:!0,value:e=>e.compile?.graph_breaks??null,format:e=>y(e.compile?.graph_breaks)},{key:"limit_hits",label:"limit hits",numeric:!0,value:e=>e.compile?.limit_hits??null,format:e=>y(e.compile?.limit_hits),title:"Functions that reached dynamo's recompile limit and now run uncompiled"}];function yi(e){let t=e.filter(a=>a.compile!==null);if(t.length===0)return null;let n=t.flatMap(a=>[...(a.compile?.recompile_reasons??[]).map(s=>`rank ${a.rank}: recompiled ${s.function} ×${s.count}: ${s.reason}`),...(a.compile?.break_reasons??[]).map(s=>`rank ${a.rank}: graph break ×${s.count}: ${s.reason}`)]),r=t.every(a=>a.compile?.source==="trace");return fe("torch.compile",o("p",{class:"muted"},r?"From the compiled regions of the traces (collectors.CompileMonitor adds graph breaks and reasons).":"From collectors.CompileMonitor (docs/COMPUTE.md)."),o("div",{class:"table-scroll"},$({columns:gi,rows:t,testId:"compile-table",rowTestId:"compile-row",rowName:a=>String(a.rank)})),n.length?o("ul",{class:"compile-reasons","data-testid":"compile-reasons"},...n.map(a=>o("li",{},a))):null)}function vi(e){let t=[{key:"name",label:"name",numeric:!1,value:n=>n.name},{key:"calls",label:"calls",numeric:!0,value:n=>n.calls,format:n=>y(n.calls)},H("total_ns","total",n=>n.total_ns,"Sum of the span's durations"),H("self_ns","self",n=>n.self_ns,"Total minus the time of direct child spans"),H("mean_ns","mean",n=>n.mean_ns),H("p50_ns","p50",n=>n.p50_ns),H("p95_ns","p95",n=>n.p95_ns),{key:"pct_of_step",label:"% of step",title:"Total as a share of all step time of the selected ranks (can exceed 100 % for spans outside steps)",numeric:!0,value:n=>n.pct_of_step,format:n=>F(n.pct_of_step)}];return e&&t.push(H("gpu_total_ns","GPU total",r=>r.gpu_total_ns,"Sum of the spans' CUDA-event durations")),t}function wi(e){let t=N(),n=t.get("sort"),r=t.get("dir");return!e.some(a=>a.key===n)||r!=="asc"&&r!=="desc"?Hr:{key:n??Hr.key,direction:r}}function fe(e,...t){return o("section",{class:"panel"},o("h2",{},e),...t)}function Dr(e){return e.length===0?null:o("section",{class:"warnings","data-testid":"warnings",role:"status"},o("h2",{},e.length===1?"1 warning while reading this run":`${e.length} warnings while reading this run`),o("ul",{},...e.map(t=>o("li",{},t))))}function ki(e){let t=e.step_series.filter(i=>i.steps.length>0);if(t.length===0)return o("p",{class:"muted"},"No completed steps yet.");let n=e.ranks.map(i=>i.rank),r=Math.max(...t.map(i=>i.bucket)),a=j({series:t.map(i=>({label:`rank ${i.rank}`,color:B(n.indexOf(i.rank)),x:i.steps,y:i.time_ns})),height:260,xLabel:"step",formatX:i=>String(i),formatY:g,yTickFormat:de,testId:"step-chart"}),s=r>1?o("p",{class:"muted"},`Each point is the mean of ${r} consecutive steps.`):null;return o("div",{},a,s)}function xi(e){if(e.spans.length===0)return o("p",{class:"muted","data-testid":"spans-empty"},e.spans_empty_reason??"");let t=vi(e.spans.some(a=>a.gpu_total_ns!==null)),n=$({columns:t,rows:e.spans,testId:"span-table",rowTestId:"span-row",rowName:a=>a.name,sort:wi(t),onSortChange:a=>L({sort:a.key,dir:a.direction})}),r=e.spans_truncated?o("p",{class:"muted"},`Showing the ${e.spans.length} spans with the largest total time.`):null;return o("div",{class:"table-scroll"},n,r)}function _i(e){let{count:t,first:n,last:r}=e.steps,a=e.rank===null?`all ${e.ranks.length} ranks`:`rank ${e.rank}`;return t===0||n===null||r===null?`No completed steps (${a}).`:`${y(t)} steps, ${n}–${r} (${a}).`}var Ir=5;function Si(e,t,n){if(e.rows.length===0&&t.rows.length===0)return null;let r=(i,l)=>{let c=o("button",{type:"button",class:"link-button"},l);return c.addEventListener("click",()=>n(i,{})),c},a=e.rows.some(i=>i.device_self_ns>0),s=(i,l)=>o("ol",{class:"top-list","data-testid":l},...i.map(([c,u])=>o("li",{},o("span",{class:"top-name"},c),` ${u}`)));return fe("Top operators and kernels",e.rows.length?o("div",{},o("h3",{},`Operators by ${a?"device":"host"} self time`),s(e.rows.map(i=>[i.name,g(a?i.device_self_ns:i.host_self_ns)]),"top-operators"),r("operators","All operators")):null,t.rows.length?o("div",{},o("h3",{},"Kernels by total time"),s(t.rows.map(i=>[i.name,g(i.total_ns)]),"top-kernels"),r("kernels","All kernels")):null)}function Ti(e,t){if(e===null)return null;let n=o("button",{type:"button","data-testid":"open-distributed"},"Open the Distributed tab");n.addEventListener("click",()=>t("distributed",{}));let r=[...e.collectives,...e.point_to_point];return o("section",{class:"panel","data-testid":"overview-distributed"},o("h2",{},"Distributed"),e.ranks.length?o("div",{},Oe(),...We(e.ranks,"overview-distributed-ranks")):o("p",{class:"muted"},"No traced steps to split into computation and communication."),r.length?Fe(r,"overview-collectives"):null,n)}function Mi(e,t){if(t)return[t.element];let n=e.ranks.some(s=>s.compute!==null),r=e.ranks.some(s=>s.device_step_time_ns!==null),a=$({columns:[...pi,...r?[hi]:[],...n?fi:[]],rows:e.ranks,testId:"rank-table",rowTestId:"rank-row",rowName:s=>String(s.rank),rowClass:s=>s.rank===e.rank?"selected":void 0});return[fe("Ranks",o("p",{class:"muted"},_i(e)),o("div",{class:"table-scroll"},a)),fe("Step time per rank",ki(e))]}function $i(e,t){let n=e.empty_view,r=null;return n!==null&&(r=o("button",{type:"button",class:"link-button","data-testid":"empty-run-open","data-tab":n},`Open the ${Ct[n]??n} tab`),r.addEventListener("click",()=>t(n,{}))),o("section",{class:"empty","data-testid":"empty-run",role:"status"},o("p",{},e.empty_reason??""),r)}function Ri(e,t,n,r,a,s){let i=t.filter(l=>e.rank===null||l.ranks.length===0||l.ranks.includes(e.rank));return e.empty_reason!==null?o("div",{class:"overview","data-testid":"overview"},Dr(e.warnings),$i(e,s),i.length>0?$e(i,s):null):o("div",{class:"overview","data-testid":"overview"},Dr(e.warnings),jn(i,s),qe(e.gpus),$e(i,s),fe("Step-time breakdown",Ar(n),o("h3",{},"Execution summary (mean per step)"),Nr(e.execution_summary)),Ti(e.distributed,s),...Mi(e,a),fe("Spans",xi(e)),yi(e.ranks),r)}var Or={id:"overview",label:"Overview",usesRankSelect:!0,async show({run:e,rank:t,signal:n,onProgress:r,onRanks:a,navigate:s}){let[i,l,c,u,d]=await Promise.all([Pr(e,t,n,r),Cr(e,n,r),Lr(e,t,n,r),at(e,t,"name",Ir,n,r),Te(e,t,Ir,n,r)]);a(i.ranks.map(f=>f.host===null?{rank:f.rank}:{rank:f.rank,host:f.host}));let m=Si(u,d,s),b=t===null&&i.ranks.length>he?new Ie(e,s,r):null,v=Ri(i,l.findings,c,m,b,s);return b?.load(),v}};var Ei=2e3,Ci=250;function Li(e,t,n,r,a,s){let i=`./python?${P(e,{rank:t,sort:n,q:r===""?null:r,limit:Ei})}`;return M(i,a,s)}var Wr=e=>F(e===null?null:e*100),Fr={function:"function",calls:"calls",self_ns:"self_ns",self_share:"self_ns",self_per_call_ns:"self_per_call_ns",cumulative_ns:"cumulative_ns",cumulative_share:"cumulative_ns",cumulative_per_call_ns:"cumulative_per_call_ns"};function Ai(e){let t=e.builtin?"built-in":`${e.filename}:${e.line}`;return o("span",{class:"python-function",title:e.function},o("span",{class:"python-name"},e.name)," ",o("span",{class:"muted"},t))}var Br=[{key:"function",label:"function",numeric:!1,value:e=>e.function,render:Ai},{key:"calls",label:"calls",title:"All calls; after a slash, the primitive (non-recursive) ones where they differ, as pstats prints ncalls",numeric:!0,value:e=>e.calls,format:e=>e.calls===e.primitive_calls?y(e.calls):`${y(e.calls)}/${y(e.primitive_calls)}`},{key:"self_ns",label:"self",title:"Time in the function itself (pstats tottime)",numeric:!0,value:e=>e.self_ns,format:e=>g(e.self_ns)},{key:"self_share",label:"self %",title:"Self time over the profiles' total time",numeric:!0,value:e=>e.self_share,format:e=>Wr(e.self_share)},{key:"self_per_call_ns",label:"self / call",title:"Self time over all calls",numeric:!0,value:e=>e.self_per_call_ns,format:e=>g(e.self_per_call_ns)},{key:"cumulative_ns",label:"cumulative",title:"Including what it called (pstats cumtime)",numeric:!0,value:e=>e.cumulative_ns,format:e=>g(e.cumulative_ns)},{key:"cumulative_share",label:"cumulative %",title:"Cumulative time over the profiles' total time",numeric:!0,value:e=>e.cumulative_share,format:e=>Wr(e.cumulative_share)},{key:"cumulative_per_call_ns",label:"cumulative / call",title:"Cumulative time over primitive calls",numeric:!0,value:e=>e.cumulative_per_call_ns,format:e=>g(e.cumulative_per_call_ns)}];function Pi(){let e=N(),t=e.get("pysort"),n=e.get("pydir");return Br.some(r=>r.key===t)&&(n==="asc"||n==="desc")?{key:t,direction:n}:{key:"self_ns",direction:"desc"}}function Ni(e){return o("section",{class:"panel"},o("h2",{},"Profiles"),o("div",{class:"table-scroll"},$({columns:[{key:"rank",label:"rank",numeric:!0,value:t=>t.rank},{key:"file",label:"file",numeric:!1,value:t=>t.file},{key:"total_ns",label:"total time",numeric:!0,value:t=>t.total_ns,format:t=>g(t.total_ns)},{key:"calls",label:"calls",numeric:!0,value:t=>t.calls,format:t=>y(t.calls)},{key:"primitive_calls",label:"primitive calls",numeric:!0,value:t=>t.primitive_calls,format:t=>y(t.primitive_calls)}],rows:e,testId:"python-files",rowTestId:"python-file",rowName:t=>t.file})))}var Gr={id:"python",label:"Python",usesRankSelect:!0,available:e=>e.sources.includes("pstats"),async show({run:e,rank:t,signal:n,onProgress:r,params:a}){let s=N(),i=o("input",{type:"search",class:"search-input",placeholder:"Filter functions","aria-label":"Filter functions","data-testid":"python-filter",value:String(a.q??s.get("pyq")??"")}),l=o("input",{type:"checkbox","data-testid":"python-builtins"});l.checked=s.get("pybuiltins")!=="0";let c=o("p",{class:"muted","data-testid":"python-caption"}),u=o("div",{class:"table-scroll"}),d=o("div"),m=Pi(),p=null,b=()=>{if(p===null)return;let w=l.checked?p.rows:p.rows.filter(_=>!_.builtin),x=p.total_rows>p.rows.length?`the first ${y(p.rows.length)} of `:"",I=p.q?` match “${p.q}” of ${y(p.functions)}`:"";c.textContent=`${x}${y(p.total_rows)} functions${I}; ${g(p.total_ns)} profiled in ${y(p.files.length)} file(s), ${y(p.calls)} calls.`;let E=p.rows.length===0&&p.empty_reason!==null?p.empty_reason:p.files.length===0?"No cProfile/pstats files in this run (drop .prof files into the run directory or its plugins/tb_perf/imported/, or use `tb-perf ingest`).":"No function matches.";u.replaceChildren(w.length===0?o("p",{class:"muted","data-testid":"python-empty"},E):$({columns:Br,rows:w,testId:"python-table",rowTestId:"python-row",rowName:_=>_.function,pageSize:X,sort:m,onSortChange:_=>{let C=p!==null&&p.total_rows>p.rows.length&&Fr[_.key]!==p.sort;m=_,L({pysort:_.key,pydir:_.direction}),C&&h()}})),d.replaceChildren(Ni(p.files))},v=new AbortController,f=async w=>{let x=i.value.trim();p=await Li(e,t,Fr[m.key]??"self_ns",x,w,r),b()},h=()=>{v.abort(),v=new AbortController,f(v.signal).catch(w=>{w instanceof DOMException&&w.name==="AbortError"||(c.textContent=`Could not load the function table: ${String(w)}`)})},k;return i.addEventListener("input",()=>{clearTimeout(k),L({pyq:i.value.trim()===""?null:i.value}),k=setTimeout(h,Ci)}),l.addEventListener("change",()=>{L({pybuiltins:l.checked?null:"0"}),b()}),await f(n),o("div",{class:"overview","data-testid":"python"},o("section",{class:"panel"},o("h2",{},"Python functions"),o("div",{class:"controls"},i,o("label",{},l," built-ins")),c,u),d)}};function Hi(e,t,n){return M(`./tasks?${P(e)}`,t,n)}var be=(e,t)=>H(e,t,n=>n[e]),Di=[{key:"name",label:"operator",numeric:!1,value:e=>e.name},{key:"category",label:"kind",numeric:!1,value:e=>e.category},{key:"count",label:"count",numeric:!0,value:e=>e.count,format:e=>y(e.count)},be("total_ns","total"),be("mean_ns","mean"),be("median_ns","median"),be("std_ns","std"),be("min_ns","min"),be("max_ns","max")];function Ii(e){let t=e.invocations.map(n=>n.error!==void 0?`#${n.index}: ${n.error}`:`#${n.index} ${g(n.duration_ns??null)}`);return`${y(e.invocations_seen)} invocation(s) seen; traced: ${t.join(", ")||"none"}.`}function Oi(e){return o("section",{class:"panel","data-testid":"task","data-name":`${e.task_type}/${e.rank}`},o("h2",{},`${e.task_type} — rank ${e.rank}`),o("p",{class:"muted"},Ii(e)," Operators matching ",o("code",{},e.ops_pattern),"."),e.operators.length===0?o("p",{class:"muted"},"No operator of the traced invocations matches the pattern."):o("div",{class:"table-scroll"},$({columns:Di,rows:e.operators,testId:"task-operators",rowTestId:"task-operator",rowName:t=>`${t.category}/${t.name}`,sort:{key:"total_ns",direction:"desc"}})))}var zr={id:"tasks",label:"Tasks",usesRankSelect:!1,available:e=>e.sources.includes("tasks"),async show({run:e,signal:t,onProgress:n}){let r=await Hi(e,t,n);return o("div",{class:"overview","data-testid":"tasks"},r.warnings.length?o("section",{class:"warnings",role:"status"},o("ul",{},...r.warnings.map(a=>o("li",{},a)))):null,r.tasks.length===0?o("p",{class:"muted","data-testid":"tasks-empty"},r.empty_reason??"No profile_task summaries in this run (set PROFILE_TASK_TYPES; docs/CAPTURE.md)."):null,...r.tasks.map(Oi))}};var Ot={window:null,selected:null,enabledRanks:null,search:""};function It(e){if(e===null||e.trim()==="")return null;let t=Number(e);return Number.isSafeInteger(t)?t:null}function Ur(e,t){if(e===null)return null;if(e==="")return[];let n=e.split(t).map(It);return n.every(r=>r!==null)?n:null}function Kr(){let e=N(),t=It(e.get("start")),n=It(e.get("end")),r=Ur(e.get("sel"),":"),[a,s]=r?.length===2?r:[];return{window:t!==null&&n!==null&&n>t?{start:t,end:n}:null,selected:a!==void 0&&s!==void 0?{rank:a,id:s}:null,enabledRanks:Ur(e.get("ranks"),","),search:e.get("q")??""}}function oe(e){let t={};e.window!==void 0&&(t.start=e.window&&String(Math.round(e.window.start)),t.end=e.window&&String(Math.round(e.window.end))),e.selected!==void 0&&(t.sel=e.selected&&`${e.selected.rank}:${e.selected.id}`),e.enabledRanks!==void 0&&(t.ranks=e.enabledRanks&&e.enabledRanks.join(",")),e.search!==void 0&&(t.q=e.search===""?null:e.search),L(t)}var Wi=1e3;function Xr(e,t){return t!==null&&e.set("ranks",t.join(",")),e}function qr(e,t,n){return M(`./timeline/meta?${new URLSearchParams({run:e})}`,t,n)}function Vr(e,t,n,r){let a=new URLSearchParams({run:e,start:String(t.start),end:String(t.end),width_px:String(t.widthPx)});return M(`./timeline/tiles?${Xr(a,t.ranks)}`,n,r)}function Wt(e,t,n){let r=new URLSearchParams({run:e,rank:String(t.rank),id:String(t.id)});return M(`./timeline/event?${r}`,n)}function jr(e,t,n,r){let a=new URLSearchParams({run:e,q:t,limit:String(Wi)});return M(`./timeline/search?${Xr(a,n)}`,r)}function Yr(e,t,n,r){return M(`./critical_path?${new URLSearchParams({run:e,step:String(t)})}`,n,r)}function Zr(e,t,n){return e.map(({rank:r})=>{let a=o("button",{type:"button",class:"rank-toggle","aria-pressed":String(t(r)),"data-testid":"timeline-rank-toggle","data-rank":r,title:`Show or hide rank ${r}`},`rank ${r}`);return a.addEventListener("click",()=>n(r)),a})}function Fi(e,t){let n=new Set;for(let r of e.split(",").map(a=>a.trim()).filter(a=>a!=="")){let a=/^(\d+)(?:\s*-\s*(\d+))?$/.exec(r);if(!a)return null;let s=Number(a[1]),i=a[2]===void 0?s:Number(a[2]);if(i<s)return null;for(let l=s;l<=i&&n.size<=t.size;l++)t.has(l)&&n.add(l)}return n.size?[...n].sort((r,a)=>r-a):null}function Ft(e){let t=[];for(let n=0;n<e.length;){let r=n;for(;r+1<e.length&&e[r+1]===(e[r]??0)+1;)r++;t.push(n===r?String(e[n]):`${e[n]}-${e[r]}`),n=r+1}return t.join(", ")}function Jr(e,t,n){let r=new Set(e.map(s=>s.rank)),a=o("input",{type:"text",value:Ft(t),placeholder:"e.g. 0-7, 37",size:16,"data-testid":"timeline-rank-picker","aria-label":"Ranks to show"});return a.addEventListener("change",()=>{let s=Fi(a.value,r);a.setAttribute("aria-invalid",String(s===null)),a.title=s===null?`Ranks as a list such as "0-7, 37", of ranks 0–${Math.max(...r)}`:"",s&&n(s)}),o("label",{class:"rank-picker"},"Ranks ",a,o("span",{class:"muted"},` ${t.length} of ${e.length}`))}function Qr(e,t){let n=o("select",{"data-testid":"timeline-step-select","aria-label":"Jump to step",disabled:e.length===0},o("option",{value:""},e.length===0?"No steps":"Jump to step…"),...e.map((r,a)=>o("option",{value:String(a)},`step ${r.step} (${g(r.end-r.start)})`)));return n.addEventListener("change",()=>{let r=e[Number(n.value)];n.value!==""&&r&&t(r)}),n}function ea(e){let t=o("input",{type:"number",min:0,step:1,placeholder:"step #","data-testid":"timeline-step-input","aria-label":"Go to step number",class:"step-input"});return t.addEventListener("change",()=>{let n=Number(t.value);t.value.trim()!==""&&Number.isSafeInteger(n)&&e(n)}),t}function ta(e,t){let n=(t.start+t.end)/2,r=null,a=0;for(let s of e){if(s.start<=n&&n<s.end)return s.step;let i=Math.min(s.end,t.end)-Math.max(s.start,t.start);i>a&&(r=s,a=i)}return r?r.step:null}function na(e){return e.timeline.map(t=>({lane:t.lane,row:t.row,start:t.start,end:t.start+t.dur}))}function ra(e){let t=e.share_of_step===null?"":` (${Math.round(e.share_of_step*100)}%)`,n=e.by_category.slice(0,3).map(r=>`${r.category} ${Math.round(r.share*100)}%`).join(", ");return`step ${e.step} on rank ${e.rank}: ${g(e.length_ns)} of ${g(e.duration_ns)}${t}${n?` · ${n}`:""}`}var st=class{element;checkbox;status=o("span",{class:"critical-path-status muted",role:"status","data-testid":"timeline-critical-path-status"});constructor(t){this.checkbox=o("input",{type:"checkbox","data-testid":"timeline-critical-path"}),this.checkbox.addEventListener("change",()=>t(this.checkbox.checked)),this.element=o("span",{class:"critical-path"},o("label",{title:"Highlight the critical path of the step in view (its slowest rank)"},this.checkbox," Critical path"),this.status)}get on(){return this.checkbox.checked}say(t){this.status.textContent=t}};function Bi(e){return typeof e=="string"?e:JSON.stringify(e)}function ee(e,t){return o("tr",{},o("th",{scope:"row"},e),o("td",{},t))}function Gi(e){let{event:t,peer:n}=e,r=t.flow;if(r===null)return null;let s=t.kind==="runtime"?"Launches":"Launched by",i=n?.name??`event ${r.id}`,l=o("button",{type:"button",class:"link-button","data-testid":"timeline-flow-link"},`${i} (rank ${r.rank}, ${e.laneLabel(r.lane)}) →`);return l.addEventListener("click",()=>e.onJump({rank:r.rank,id:r.id})),ee(s,l)}function aa(e){let{event:t,zero:n}=e,r=o("button",{type:"button",class:"link-button"},"Zoom to event");r.addEventListener("click",e.onZoom);let a=Object.entries(t.args);return o("div",{class:"details-body"},o("div",{class:"details-header"},o("h2",{class:"details-title",title:t.name},t.name),r),o("table",{class:"details-table"},o("tbody",{},ee("kind",t.kind),ee("rank",String(t.rank)),ee("lane",e.laneLabel(t.lane)),ee("step",t.step===null?"—":String(t.step)),ee("start",`${ie(t.start-n)} from run start`),ee("duration",`${g(t.dur)} (${t.dur.toLocaleString("en-US")} ns)`),ee("event id",String(t.id)),Gi(e))),a.length===0?null:o("table",{class:"details-table details-args","data-testid":"timeline-details-args"},o("caption",{},"Arguments"),o("tbody",{},...a.map(([s,i])=>ee(s,Bi(i))))))}function zi(e){return e.kind==="counter"?36:Math.max(1,e.rows)*18+6}function oa(e,t,n){let r=[],a=new Map,s=0;for(let i of e.ranks){if(!t.has(i.rank))continue;let l=n.has(i.rank);if(r.push({type:"rank",rank:i,collapsed:l,top:s,height:24}),s+=24,!l)for(let c of i.lanes){let u={type:"lane",rank:i.rank,lane:c,top:s,height:zi(c)};r.push(u),a.set(c.id,u),s+=u.height}}return{bands:r,lanes:a,height:s}}function sa(e,t){return e.bands.find(n=>t>=n.top&&t<n.top+n.height)??null}function ge(e,t){return e.top+3+t*18}function ia(e,t){let n=Math.floor((t-e.top-3)/18);return n>=0&&n<e.lane.rows?n:-1}function la(e){return e.bands.flatMap(t=>t.type==="rank"&&!t.collapsed?[t.rank.rank]:[])}var Ui={clock_sync:"The collectors measured this rank's clock offset to rank 0.",collectives:"Offset fitted so that the same collectives end together on every rank.",steps:"Offset chosen so that this rank's step boundaries line up with the other ranks'.",reference:"Rank 0's own clock: the reference the other ranks are aligned to.",none:"Not aligned: no clock sync, collectives or steps to align with."};function ca(e){let{method:t,uncertainty_ns:n}=e;return t==="reference"||t==="none"?t:`${t} ±${g(n)}`}function da(e){let t=[Ui[e.method]??e.method];if(e.method!=="reference"&&e.method!=="none"){if(t.push(`Offset added to this rank's clock: ${g(e.offset_ns)}.`,`Remaining error at most ±${g(e.uncertainty_ns)}.`),e.method==="collectives"||e.method==="steps"){let n=e.outliers?`, ${e.outliers} set aside as outliers`:"";t.push(`Fitted on ${e.pairs} matched pairs${n}.`)}e.drift_ns_per_s!==null&&t.push(`Clock drift corrected: ${g(e.drift_ns_per_s)} per s.`)}return t}var Ki=[[1e9,"s"],[1e6,"ms"],[1e3,"µs"],[1,"ns"]],Xi=1e4;function qi(e){let t=10**Math.floor(Math.log10(e));return[1,2,5,10].map(n=>n*t).find(n=>n>=e)??10*t}function ua(e){return Ki.find(([t])=>e>=t)??[1,"ns"]}function ma(e,t){return Math.max(0,Math.ceil(-Math.log10(e/t)-1e-9))}function pa(e,t,n,r,a){let s=Math.max(1,qi((t-e)/Math.max(1,n)*r)),i=Math.ceil((e-a)/s)*s,l=Math.abs(i)/s>Xi,c=s*100,u=l?Math.floor(i/c)*c:0,d=[];for(let k=i;a+k<t;k+=s)d.push(k);let m=Math.max(s,...d.map(k=>Math.abs(k-u))),[p,b]=ua(m),v=ma(s,p),f=d.map(k=>`${l?"+":""}${((k-u)/p).toFixed(v)} ${b}`),h=null;if(l){let[k,w]=ua(Math.abs(u)||1);h=`${(u/k).toFixed(ma(c,k))} ${w}`}return{ticks:d.map(k=>a+k),labels:f,baseLabel:h}}var J="all";function Bt(e,t,n){let r=t===J?void 0:e[t];return r?Je(r.start_ns,r.end_ns):Je(n.start,n.end)}function Gt(e,t,n){let r=-1,a=-1;return e.forEach((s,i)=>{let l=Math.min(n,s.end_ns)-Math.max(t,s.start_ns);t<=s.end_ns&&n>=s.start_ns&&l>a&&(r=i,a=l)}),r}function fa(e,t){if(e.length<=1)return J;if(t===null)return 0;let n=Gt(e,t.start,t.end),r=e[n];return r&&t.start>=r.start_ns-ha(r)&&t.end<=r.end_ns+ha(r)?n:J}function ha(e){let t=Je(e.start_ns,e.end_ns);return e.start_ns-t.start}function ba(e,t,n,r,a){let s=Bt(e,t,a);if(n>=s.start&&r<=s.end)return t;let i=Gt(e,n,r);return i>=0?i:J}function ga(e){let t=[];for(let n=1;n<e.length;n+=1){let r=e[n-1],a=e[n];r&&a&&a.start_ns>r.end_ns&&t.push({start:r.end_ns,end:a.start_ns})}return t}function ya(e,t,n){let r=t.find(i=>i.step===n),a=t.length>0?` This run recorded steps ${Ft(t.map(i=>i.step).sort((i,l)=>i-l))}.`:" This run recorded no steps.";if(!r)return{message:`Step ${n} is outside every recorded window: no trace or span holds it.${a}`};let s=Gt(e,r.start,r.end);return s<0&&e.length>0?{message:`Step ${n} is outside every recorded window.${a}`}:{extent:r,window:s}}function Vi(e,t){return`${t+1}. ${e.label} (${g(e.end_ns-e.start_ns)})`}function va(e){return`not recorded · ${g(e.end-e.start)}`}function wa(e,t,n){let r=o("select",{"data-testid":"timeline-window-select","aria-label":"Recorded window"},...e.map((a,s)=>o("option",{value:String(s)},Vi(a,s))),o("option",{value:J},`All ${e.length} windows, gaps marked`));return r.value=String(t),r.addEventListener("change",()=>n(r.value===J?J:Number(r.value))),r}var it="11px Roboto, 'Helvetica Neue', Arial, sans-serif",ji="500 12px Roboto, 'Helvetica Neue', Arial, sans-serif",Yi=110,Zi=1,Ji=28,Qi=.45,el=10;function tl(e){let{window:t,width:n}=e,r=(n-220)/Math.max(1,t.end-t.start);return{x:a=>220+(a-t.start)*r,left:220,right:n}}var Ut=0;function nl(e){if(Ut===0){let t="aten::addmm_sgemm_128x64_nn cudaLaunchKernel ProfilerStep#12";Ut=e.measureText(t).width/t.length}return Ut}function lt(e,t,n){let r=Math.floor(n/nl(e));return r<2?null:t.length<=r?t:`${t.slice(0,r-1)}…`}function rl(e){let t=e.scrollTop,n=t+e.height-28;return e.layout.bands.filter(r=>r.type==="lane"&&r.top+r.height>t&&r.top<n)}function al(e,t,n,r,a){let{theme:s,tile:i}=a,l=u=>{let d=r.x(t.start[u]??0),m=r.x(t.end[u]??0);if(m<r.left||d>r.right)return null;let p=Math.round(Math.max(d,r.left-1)),b=Math.round(Math.min(m,r.right+1));return[p,Math.max(b-p,Zi)]},c=(u,d)=>{e.rect(d[0],ge(n,t.row[u]??0)+1,d[1],16)};for(let u=0;u<40;u+=1){let d=t.colorOffsets[u]??0,m=t.colorOffsets[u+1]??0;if(d!==m){e.fillStyle=s.boxes[u]??s.accent;for(let p of[!1,!0]){e.beginPath();for(let b=d;b<m;b+=1){let v=t.byColor[b]??0;if((t.count[v]??1)>1!==p)continue;let f=l(v);f&&c(v,f)}e.globalAlpha=p?Qi:1,e.fill()}}}e.globalAlpha=1,e.fillStyle=s.boxText;for(let u=0;u<t.size;u+=1){let d=l(u);if(d===null||d[1]<Ji)continue;let m=i?.names[t.name[u]??0]??"",p=t.count[u]??1,b=lt(e,p>1?`${y(p)} × ${m}`:m,d[1]-6);b!==null&&e.fillText(b,d[0]+3,ge(n,t.row[u]??0)+18/2)}}function xa(e){let t=0;for(let n of e.value)t=Math.max(t,n);return t||1}function Xt(e,t){return/bytes/i.test(e)?ne(t):y(t)}function ol(e,t,n,r,a){let{t:s,value:i}=t;if(s.length===0)return;let l=xa(t),c=n.top+n.height-2,u=m=>c-m/l*(n.height-8),d=Math.min(r.x(a.tile?.end??a.window.end),r.right);e.beginPath(),e.moveTo(r.x(s[0]??0),c);for(let m=0;m<s.length;m+=1){let p=Math.max(r.x(s[m]??0),r.left-1),b=Math.min(m+1<s.length?r.x(s[m+1]??0):d,r.right+1),v=u(i[m]??0);e.lineTo(p,v),e.lineTo(b,v)}e.lineTo(d,c),e.closePath(),e.globalAlpha=.3,e.fillStyle=a.theme.accent,e.fill(),e.globalAlpha=1,e.strokeStyle=a.theme.accent,e.lineWidth=1,e.stroke()}function _a(e,t,n){let r=t.layout.lanes.get(e.lane);if(!r)return null;let a=Math.max(n.x(e.start),n.left-2),s=Math.min(n.x(e.end),n.right+2);return[a,ge(r,e.row),Math.max(s-a,2)]}function ka(e,t,n,r,a){let s=_a(t,n,r);s&&(e.lineWidth=a,e.strokeStyle=n.theme.text,e.strokeRect(s[0],s[1]+.5,s[2],17))}var sl=.35;function il(e,t,n,r){if(t.length!==0){e.beginPath();for(let a of t){if(r.x(a.end)<r.left||r.x(a.start)>r.right)continue;let s=_a(a,n,r);s&&e.rect(s[0],s[1]+.5,s[2],17)}e.globalAlpha=sl,e.fillStyle=n.theme.accent,e.fill(),e.globalAlpha=1,e.lineWidth=1.5,e.strokeStyle=n.theme.accent,e.stroke()}}function ll(e,t,n,r){let a=n.layout.lanes.get(t.from.lane),s=n.layout.lanes.get(t.to.lane);if(!a||!s)return;let i=r.x(t.from.start),l=ge(a,t.from.row)+18/2,c=r.x(t.to.start),u=ge(s,t.to.row)+18/2,d=Math.max(20,Math.abs(u-l)/2);e.strokeStyle=n.theme.accent,e.fillStyle=n.theme.accent,e.lineWidth=1.5,e.beginPath(),e.moveTo(i,l),e.bezierCurveTo(i,l+Math.sign(u-l||1)*d,c,u-Math.sign(u-l||1)*d,c,u),e.stroke();let m=Math.sign(u-l||1);e.beginPath(),e.moveTo(c,u),e.lineTo(c-4,u-m*8),e.lineTo(c+4,u-m*8),e.closePath(),e.fill();for(let[p,b]of[[i,l],[c,u]])e.beginPath(),e.arc(p,b,3,0,2*Math.PI),e.fill()}function cl(e,t,n){let r=t.scrollTop,a=t.height-28;for(let s of t.gaps){let i=Math.max(n.x(s.start),n.left),l=Math.min(n.x(s.end),n.right);if(l<=i)continue;e.fillStyle=t.theme.surface,e.fillRect(i,r,l-i,a),e.save(),e.beginPath(),e.rect(i,r,l-i,a),e.clip(),e.strokeStyle=t.theme.border,e.lineWidth=1,e.beginPath();for(let u=i-a;u<l;u+=el)e.moveTo(u,r+a),e.lineTo(u+a,r);e.stroke(),e.restore();let c=lt(e,va(s),l-i-8);c&&(e.fillStyle=t.theme.mutedText,e.textAlign="center",e.fillText(c,(i+l)/2,r+12),e.textAlign="start")}}function dl(e,t){let{theme:n,width:r}=t,a=t.scrollTop,s=a+t.height-28;e.fillStyle=n.surface,e.fillRect(0,a,220,s-a),e.textBaseline="middle";for(let i of t.layout.bands)if(!(i.top+i.height<=a||i.top>=s)){if(i.type==="rank"){e.fillStyle=n.grid,e.fillRect(0,i.top,r,24),e.font=ji,e.fillStyle=n.text;let l=`${i.collapsed?"▸":"▾"} rank ${i.rank.rank}`;e.fillText(l,8,i.top+24/2),e.font=it,e.fillStyle=n.mutedText;let c=lt(e,ca(i.rank.alignment),140);c&&e.fillText(c,76,i.top+24/2)}else{e.font=it,e.fillStyle=n.text;let l=lt(e,i.lane.label,196);l&&e.fillText(l,16,i.top+Math.min(i.height,24)/2);let c=t.tile?.counters.get(i.lane.id);if(c&&c.t.length>0){e.fillStyle=n.mutedText;let u=`max ${Xt(i.lane.label,xa(c))}`;e.fillText(u,16,i.top+i.height-9)}}e.fillStyle=n.border,e.fillRect(0,i.top+i.height-1,r,1)}e.fillRect(219,a,1,s-a)}function ul(e,t,n,r){let{theme:a,width:s}=n;e.fillStyle=a.background,e.fillRect(0,0,s,28),e.fillStyle=a.border,e.fillRect(0,27,s,1),e.font=it,e.textBaseline="middle",e.fillStyle=a.mutedText,e.fillText(t.baseLabel?`from ${t.baseLabel}`:"from run start",8,28/2),t.ticks.forEach((i,l)=>{let c=Math.round(r.x(i))+.5;e.fillRect(c,22,1,5),e.fillText(t.labels[l]??"",c+3,28/2-2)})}function Sa(e,t){let{width:n,height:r,theme:a,tile:s,window:i}=t,l=tl(t),c=pa(i.start,i.end,n-220,Yi,t.zero);e.fillStyle=a.background,e.fillRect(0,0,n,r),e.font=it,e.textBaseline="middle",e.save(),e.beginPath(),e.rect(0,28,n,r-28),e.clip(),e.translate(0,28-t.scrollTop),dl(e,t),e.save(),e.beginPath(),e.rect(220,t.scrollTop,n-220,r),e.clip(),e.fillStyle=a.grid;for(let u of c.ticks)e.fillRect(Math.round(l.x(u)),t.scrollTop,1,r);cl(e,t,l);for(let u of rl(t)){let d=s?.lanes.get(u.lane.id);d&&al(e,d,u,l,t);let m=s?.counters.get(u.lane.id);m&&ol(e,m,u,l,t)}il(e,t.path,t,l),t.hovered&&ka(e,t.hovered,t,l,1),t.selected&&ka(e,t.selected,t,l,2),t.flow&&ll(e,t.flow,t,l),e.restore(),e.restore(),ul(e,c,t,l),t.emptyMessage!==null&&(e.fillStyle=a.mutedText,e.textAlign="center",e.fillText(t.emptyMessage,220+(n-220)/2,68),e.textAlign="start")}function Ta(e,t){let n=new Uint32Array(t);for(let i=0;i<e.length;i+=1){let l=e[i]??0;n[l]=(n[l]??0)+1}let r=new Uint32Array(t+1);for(let i=0;i<t;i+=1)r[i+1]=(r[i]??0)+(n[i]??0);let a=r.slice(0,t),s=new Uint32Array(e.length);for(let i=0;i<e.length;i+=1){let l=e[i]??0;s[a[l]??0]=i,a[l]=(a[l]??0)+1}return[s,r]}function ml(e,t,n){for(let r=0;r+1<t.length;r+=1){let a=e.subarray(t[r]??0,t[r+1]??0);for(let s=1;s<a.length;s+=1)if((n[a[s]??0]??0)<(n[a[s-1]??0]??0)){a.sort((i,l)=>(n[i]??0)-(n[l]??0));break}}}function pl(e,t){let n=e.start.length,r=new Float64Array(n),a=new Float64Array(n),s=new Uint16Array(n),i=new Uint32Array(n),l=new Uint8Array(n),c=0;for(let b=0;b<n;b+=1){let v=e.start[b]??0;r[b]=v,a[b]=v+(e.dur[b]??0);let f=e.row[b]??0;s[b]=f,c=Math.max(c,f+1);let h=e.name[b]??0;i[b]=h,l[b]=t[h]??0}let[u,d]=Ta(s,c);ml(u,d,r);let[m,p]=Ta(l,40);return{size:n,start:r,end:a,row:s,name:i,count:Float64Array.from(e.count),eventId:Float64Array.from(e.id),byColor:m,colorOffsets:p,byRow:u,rowOffsets:d}}function Ma(e,t){let n=Uint8Array.from(e.names,je);return{start:e.start,end:e.end,nsPerPx:e.ns_per_px,ranksKey:t,names:e.names,lanes:new Map(e.lanes.map(r=>[r.id,pl(r.boxes,n)])),counters:new Map(e.counters.map(r=>[r.id,r])),flows:e.flows}}function $a(e,t,n,r){let a=e.rowOffsets[t],s=e.rowOffsets[t+1];if(a===void 0||s===void 0)return-1;let i=a,l=s;for(;i<l;){let d=i+l>>1;(e.start[e.byRow[d]??0]??0)<=n+r?i=d+1:l=d}let c=-1,u=1/0;for(let d=i-1;d>=Math.max(a,i-2);d-=1){let m=e.byRow[d]??0,p=e.start[m]??0,b=e.end[m]??0,v=n<p?p-n:n>b?n-b:0;v<=r&&v<u&&(c=m,u=v)}return c}function Ra(e,t,n){let{x:r,y:a,scrollTop:s,time:i,slack:l}=n;if(a<28)return null;let c=sa(e,a-28+s);if(!c)return null;if(c.type==="rank")return{rankBand:c.rank.rank};let u=ia(c,a-28+s),d=t?.lanes.get(c.lane.id),m=d&&u>=0&&r>=220?$a(d,u,i,l):-1;return{band:c,box:m,row:u,time:i}}function hl(e,t){let n=e?.counters.get(t.band.lane.id);if(!n)return null;let r=-1;for(let s=0;s<n.t.length&&(n.t[s]??0)<=t.time;s+=1)r=s;let a=n.value[r];return a===void 0?null:[t.band.lane.label,Xt(t.band.lane.label,a)]}function Ea(e,t,n,r,a){if(e===null)return null;if("rankBand"in e){let b=r?.ranks.find(h=>h.rank===e.rankBand),v=b&&a.has(b.rank)?"expand":"collapse";return{span:null,lines:b?[`rank ${b.rank} (click to ${v})`,...da(b.alignment)]:null,cursor:"pointer"}}let s=e.band.lane;if(t<220)return{span:null,lines:[s.label,`rank ${e.band.rank} · ${s.kind}`],cursor:""};if(s.kind==="counter")return{span:null,lines:hl(n,e),cursor:""};let i=n?.lanes.get(s.id);if(!i||e.box<0)return{span:null,lines:null,cursor:""};let l=i.start[e.box]??0,c=i.end[e.box]??0,u=i.count[e.box]??1,d=n?.names[i.name[e.box]??0]??"",m=r?.start??0,p=u>1?[`${y(u)} events`,`longest: ${d}`,`over ${g(c-l)} from ${ie(l-m)}`,"click to zoom in"]:[d,`duration ${g(c-l)}`,`start ${ie(l-m)}`];return{span:{lane:s.id,row:e.row,start:l,end:c},lines:p,cursor:""}}var fl=250,ct=class{constructor(t){this.options=t;this.input=o("input",{type:"search",class:"search-input",placeholder:"Search events by name","aria-label":"Search events by name","data-testid":"timeline-search",value:t.initialText});let n=o("button",{type:"button","data-testid":"timeline-prev",title:"Previous match (Shift+Enter)"},"‹ Prev"),r=o("button",{type:"button","data-testid":"timeline-next",title:"Next match (Enter)"},"Next ›");n.addEventListener("click",()=>{this.step(-1)}),r.addEventListener("click",()=>{this.step(1)}),this.input.addEventListener("input",()=>{this.options.onTextChange(this.text()),clearTimeout(this.typingTimer),this.typingTimer=window.setTimeout(()=>{this.refresh()},fl)}),this.input.addEventListener("keydown",a=>{a.key==="Enter"&&(a.preventDefault(),this.step(a.shiftKey?-1:1))}),this.element=o("div",{class:"search",role:"search"},this.input,this.count,n,r)}options;element;input;count=o("span",{class:"search-count","data-testid":"timeline-search-count","aria-live":"polite"});result=null;resultText="";index=-1;inFlight=new AbortController;typingTimer=0;text(){return this.input.value.trim()}refresh(){clearTimeout(this.typingTimer),this.inFlight.abort(),this.inFlight=new AbortController;let t=this.inFlight.signal,n=this.text();return this.index=-1,n===""?(this.result=null,this.resultText="",this.showCount(),Promise.resolve()):(this.count.textContent="…",this.options.search(n,t).then(r=>{t.aborted||(this.result=r,this.resultText=n,this.showCount())},r=>{t.aborted||(this.result=null,this.count.textContent="search failed",this.count.title=r instanceof W?r.message:String(r))}))}async step(t){(this.result===null||this.resultText!==this.text())&&await this.refresh();let n=this.result?.matches??[];if(n.length===0)return;if(this.index===-1){let a=this.options.viewStart(),s=n.findIndex(l=>l.start>=a),i=s===-1?0:s;this.index=t===1?i:(i-1+n.length)%n.length}else this.index=(this.index+t+n.length)%n.length;this.showCount();let r=n[this.index];r&&this.options.onMatch(r)}showCount(){let t=this.result;this.count.title="",t===null?this.count.textContent="":t.total===0?this.count.textContent="no matches":this.index===-1?this.count.textContent=`${y(t.total)} ${t.total===1?"match":"matches"}`:this.count.textContent=`${y(this.index+1)} / ${y(t.total)}`,t!==null&&t.total>t.matches.length&&(this.count.title=`Next and previous visit the first ${y(t.matches.length)} matches in time order.`)}};function Vt(e,t){return e!==null&&t!==null&&e.rank===t.rank&&e.id===t.id}function qt(e){return{lane:e.lane,row:e.row,start:e.start,end:e.start+e.dur}}function Ca(e,t,n){if(!t||!Vt(t,e))return{selected:null,flow:null};let r=qt(t);return n?t.kind==="runtime"?{selected:r,flow:{from:r,to:qt(n)}}:{selected:r,flow:{from:qt(n),to:r}}:{selected:r,flow:null}}var dt=class{constructor(t,n){this.scene=t;this.onResize=n;let r=this.canvas.getContext("2d",{alpha:!1});if(r===null)throw new Error("This browser cannot draw on a canvas.");this.ctx=r,this.theme=Ee(),this.scroller.append(this.canvas,this.spacer),this.scroller.addEventListener("scroll",()=>this.scheduleDraw());let a=new ResizeObserver(()=>this.resize());a.observe(this.scroller);let s=new MutationObserver(()=>{this.theme=Ee(),this.scheduleDraw()});s.observe(document.documentElement,{attributes:!0,attributeFilter:["data-theme"]}),this.observers.push(a,s)}scene;onResize;canvas=o("canvas",{class:"timeline-canvas",tabindex:0,"data-testid":"timeline-canvas","aria-label":"Timeline: W/S or the wheel zoom, A/D or dragging pan, click selects"});scroller=o("div",{class:"timeline-scroller"});spacer=o("div",{class:"timeline-spacer"});tooltip=o("div",{class:"chart-tooltip timeline-tooltip",hidden:!0});status=o("div",{class:"timeline-status","data-testid":"timeline-status",hidden:!0});element=o("div",{class:"timeline-stage"},this.scroller,this.tooltip,this.status);ctx;theme;observers=[];size={width:0,height:0,dpr:1};lanesHeight=0;drawPending=!1;get width(){return this.size.width}get scrollTop(){return this.scroller.scrollTop}setLanesHeight(t){this.lanesHeight=t,this.spacer.style.height=`${Math.max(0,28+t-this.size.height)}px`}scheduleDraw(){this.drawPending||(this.drawPending=!0,requestAnimationFrame(()=>this.drawNow()))}showTooltip(t,n,r){if(t===null){this.tooltip.hidden=!0;return}let[a,...s]=t;this.tooltip.replaceChildren(o("div",{class:"tooltip-title"},a??""),...s.map(l=>o("div",{},l))),this.tooltip.hidden=!1;let i=n+16+this.tooltip.offsetWidth>this.size.width;this.tooltip.style.left=`${i?n-12-this.tooltip.offsetWidth:n+16}px`,this.tooltip.style.top=`${r+16}px`}showProgress(t){let n=Math.round(Math.min(1,Math.max(0,t.fraction))*100);this.status.removeAttribute("role"),this.status.textContent=`Reading run files… ${n} % (${ne(t.done_bytes)} of ${ne(t.total_bytes)})`,this.status.hidden=!1}showError(t){let n=t instanceof W?`${t.message} (${t.code})`:String(t);this.status.setAttribute("role","alert"),this.status.textContent=`Could not load this part of the timeline: ${n}`,this.status.hidden=!1}hideStatus(){this.status.hidden=!0}dispose(){for(let t of this.observers)t.disconnect()}resize(){let t=this.scroller.clientWidth,n=this.scroller.clientHeight,r=window.devicePixelRatio||1;t===this.size.width&&n===this.size.height&&r===this.size.dpr||(this.size={width:t,height:n,dpr:r},!(t===0||n===0)&&(this.canvas.style.width=`${t}px`,this.canvas.style.height=`${n}px`,this.canvas.width=Math.round(t*r),this.canvas.height=Math.round(n*r),this.setLanesHeight(this.lanesHeight),this.onResize(),this.drawNow()))}drawNow(){this.drawPending=!1;let{width:t,height:n,dpr:r}=this.size;if(t===0||n===0)return;let a=this.scene();a!==null&&(this.ctx.setTransform(r,0,0,r,0,0),Sa(this.ctx,{width:t,height:n,scrollTop:this.scroller.scrollTop,theme:this.theme,...a}))}};var bl=60,La=8192,gl=1.5;function Pa(e){return e===null?"all":e.join(",")}function Aa(e,t){if(e===null||e.ranksKey!==Pa(t.ranks))return!1;let{window:n,extent:r}=t,a=(n.end-n.start)/t.widthPx;return e.start<=Math.max(n.start,r.start)&&e.end>=Math.min(n.end,r.end)&&e.nsPerPx<=a*gl}function yl(e){let{window:t,extent:n}=e,r=t.end-t.start,a=r/e.widthPx,s=Math.max(0,Math.min(r/2,(La*a-r)/2)),i=Math.floor(Math.max(n.start,t.start-s)),l=Math.ceil(Math.min(n.end,t.end+s)),c=Math.min(La,Math.max(1,Math.round((l-i)/a)));return{start:i,end:Math.max(l,i+1),widthPx:c,ranks:e.ranks,nsPerPx:(l-i)/c,ranksKey:Pa(e.ranks)}}var ut=class{constructor(t,n){this.run=t;this.listener=n}run;listener;timer=0;inFlight=null;want(t,n){clearTimeout(this.timer),!(Aa(n,t)||Aa(this.inFlight?.query??null,t))&&(this.timer=window.setTimeout(()=>this.fetch(t),bl))}refetch(t){clearTimeout(this.timer),this.fetch(t)}cancel(){clearTimeout(this.timer),this.inFlight?.controller.abort(),this.inFlight=null}fetch(t){this.cancel();let n=yl(t),r=new AbortController;this.inFlight={query:n,controller:r},Vr(this.run,n,r.signal,this.listener.onProgress).then(a=>{r.signal.aborted||(this.inFlight=null,this.listener.onTile(Ma(a,n.ranksKey)))},a=>{r.signal.aborted||(this.inFlight=null,this.listener.onError(a))})}};var vl=200,wl=2,kl=1,mt=class{constructor(t,n){this.run=t;this.window=n.window,this.selected=n.selected,this.enabledRanks=n.enabledRanks&&new Set(n.enabledRanks),this.selected&&(this.canvas.dataset.selected=`${this.selected.rank}:${this.selected.id}`),this.search=new ct({initialText:n.search,search:(a,s)=>jr(this.run,a,this.enabledRankList(),s),onMatch:a=>this.showMatch(a),onTextChange:a=>oe({search:a}),viewStart:()=>this.window?.start??0}),this.tiles=new ut(t,{onTile:a=>{this.tile=a,this.stage.hideStatus(),this.scheduleDraw()},onProgress:a=>this.stage.showProgress(a),onError:a=>this.stage.showError(a)});let r=o("button",{type:"button","data-testid":"timeline-reset"},"Reset zoom");r.addEventListener("click",()=>this.setWindow(this.bounds)),this.element=o("div",{class:"timeline","data-testid":"timeline","data-run":t},o("div",{class:"timeline-toolbar"},this.rankToggleGroup,this.windowPicker,this.stepPicker,r,this.criticalPath.element,this.windowNote,this.search.element,o("span",{class:"muted hint"},"W/S or wheel: zoom · A/D or drag: pan · Esc: deselect")),this.stage.element,this.details),tt(this.canvas,{zoomAt:(a,s)=>this.zoomAt(a,s),panBy:a=>this.panBy(a),timeAreaWidth:()=>this.timeAreaWidth(),clickAt:(a,s)=>this.clickAt(a,s),hoverAt:(a,s)=>this.hoverAt(a,s),hoverEnd:()=>this.setHover(null,null),escape:()=>this.select(null,!1)},{timeAreaLeft:220,keys:!0})}run;element;loaded=!1;meta=null;layout={bands:[],lanes:new Map,height:0};bounds={start:0,end:1};choice=J;gaps=[];window;enabledRanks;collapsedRanks=new Set;tile=null;selected;selectedEvent=null;flowPeer=null;hovered=null;selectionRequest=new AbortController;stage=new dt(()=>this.sceneParts(),()=>this.requestTiles(!1));canvas=this.stage.canvas;details=o("section",{class:"timeline-details","data-testid":"timeline-details","aria-live":"polite"},o("p",{class:"muted"},"Click an event to see its details."));rankToggleGroup=o("div",{class:"rank-toggles",role:"group","aria-label":"Ranks"});stepPicker=o("label",{class:"step-picker"});windowPicker=o("label",{class:"window-picker"});windowNote=o("span",{class:"window-note",role:"status","data-testid":"timeline-window-note",hidden:!0});search;tiles;criticalPath=new st(()=>this.refreshCriticalPath(!0));pathStep=null;path=[];pathRequest=new AbortController;hashTimer=0;async load(t,n,r=[]){let a=await qr(this.run,t,n);if(t.aborted)return;if(this.enabledRanks===null&&a.ranks.length>he){let i=a.ranks.map(u=>u.rank),l=r.filter(u=>i.includes(u)),c=l.length>0?l:await yn(this.run,i,t);if(t.aborted)return;this.enabledRanks=new Set(c),oe({enabledRanks:this.enabledRankList()})}let s=this.loaded&&(this.choice===J||this.choice<a.windows.length);this.meta=a,this.loaded=!0,this.gaps=ga(a.windows),this.relayout(),this.pickWindow(s?this.choice:fa(a.windows,this.window),this.window),this.stepPicker.replaceChildren(Qr(a.steps,i=>this.showStep(i.step)),ea(i=>this.showStep(i))),this.tile=null,this.tiles.cancel(),this.requestTiles(!0),this.selected&&this.select(this.selected,!1),this.search.refresh(),this.refreshCriticalPath(!0)}showStep(t){let n=this.meta;if(!n)return;let r=ya(n.windows,n.steps,t);if("message"in r){this.windowNote.textContent=r.message,this.windowNote.hidden=!1;return}n.windows.length>1&&r.window!==this.choice&&this.pickWindow(r.window),this.showRange(r.extent.start,r.extent.end,.02)}showRanks(t){let n=new Set(this.meta?.ranks.map(a=>a.rank)??[]),r=t.filter(a=>n.has(a));r.length>0&&this.setEnabledRanks(new Set(r))}revealRank(t){if(!this.meta?.ranks.some(r=>r.rank===t))return;let n=this.collapsedRanks.delete(t);this.enabledRanks!==null&&!this.enabledRanks.has(t)?this.setEnabledRanks(new Set([...this.enabledRanks,t])):n&&(this.relayout(),this.requestTiles(!1))}dispose(){this.tiles.cancel(),this.pathRequest.abort(),this.selectionRequest.abort(),this.stage.dispose()}enabledRankList(){return this.enabledRanks&&[...this.enabledRanks].sort((t,n)=>t-n)}isRankEnabled(t){return this.enabledRanks===null||this.enabledRanks.has(t)}relayout(){let t=this.meta;if(!t)return;let n=new Set(t.ranks.map(s=>s.rank).filter(s=>this.isRankEnabled(s)));this.layout=oa(t,n,this.collapsedRanks),this.canvas.dataset.ranks=[...n].sort((s,i)=>s-i).join(",");let r=t.ranks.length>he,a=r?t.ranks.filter(s=>n.has(s.rank)):t.ranks;this.rankToggleGroup.replaceChildren(...r?[Jr(t.ranks,[...n].sort((s,i)=>s-i),s=>this.setEnabledRanks(new Set(s)))]:[],...Zr(a,s=>this.isRankEnabled(s),s=>this.toggleRank(s))),this.stage.setLanesHeight(this.layout.height),this.scheduleDraw()}toggleRank(t){let n=this.meta?.ranks.map(a=>a.rank)??[],r=this.enabledRanks??new Set(n);r.has(t)?r.delete(t):r.add(t),this.setEnabledRanks(r)}setEnabledRanks(t){let n=this.meta?.ranks.map(r=>r.rank)??[];this.enabledRanks=n.every(r=>t.has(r))?null:t,oe({enabledRanks:this.enabledRankList()}),this.relayout(),this.requestTiles(!1),this.search.refresh()}toggleCollapsed(t){this.collapsedRanks.has(t)?this.collapsedRanks.delete(t):this.collapsedRanks.add(t),this.relayout(),this.requestTiles(!1)}pickWindow(t,n=null){let r=this.meta;r&&(this.choice=t,this.bounds=Bt(r.windows,t,{start:r.start,end:r.end}),this.canvas.dataset.window=String(t),this.windowNote.hidden=!0,this.windowPicker.replaceChildren(...r.windows.length>1?[wa(r.windows,t,a=>this.pickWindow(a))]:[]),this.setWindow(n??this.bounds))}showRange(t,n,r){let a=this.meta;if(!a)return;let s=ba(a.windows,this.choice,t,n,{start:a.start,end:a.end});s!==this.choice&&this.pickWindow(s),this.windowNote.hidden=!0,this.setWindow(Ze(t,n,r,this.bounds))}setWindow(t){this.window=ae(t,this.bounds),this.canvas.dataset.start=String(Math.round(this.window.start)),this.canvas.dataset.end=String(Math.round(this.window.end));let n=this.window;this.canvas.dataset.gaps=String(this.gaps.filter(r=>r.start<n.end&&r.end>n.start).length),this.scheduleDraw(),this.requestTiles(!1),this.refreshCriticalPath(!1),clearTimeout(this.hashTimer),this.hashTimer=window.setTimeout(()=>oe({window:this.window}),vl)}requestTiles(t){let n=this.meta,r=this.window,a=this.timeAreaWidth();if(!n||!r||a<=0)return;let s=la(this.layout);if(s.length===0)return;let i=s.length===n.ranks.length,l={start:Math.max(n.start,this.bounds.start),end:Math.min(n.end,this.bounds.end)},c={window:r,widthPx:a,ranks:i?null:s,extent:l};t?this.tiles.refetch(c):this.tiles.want(c,this.tile)}timeAreaWidth(){return Math.max(0,this.stage.width-220)}timeAt(t){return Ce(this.window??this.bounds,t,220,this.timeAreaWidth())}nsPerPx(){return Le(this.window??this.bounds,this.timeAreaWidth())}zoomAt(t,n){let r=this.window;r&&this.navigateTo(Qe(r,t,220,this.timeAreaWidth(),n,this.bounds))}panBy(t){this.window&&this.navigateTo(et(this.window,t,this.timeAreaWidth(),this.bounds))}navigateTo(t){(t.start!==this.window?.start||t.end!==this.window.end)&&this.setWindow(t)}refreshCriticalPath(t){let n=this.meta;if(!this.criticalPath.on||!n||!this.window){this.pathRequest.abort(),this.pathStep=null,this.path=[],this.criticalPath.say(""),delete this.canvas.dataset.criticalPath,this.scheduleDraw();return}let r=ta(n.steps,this.window);if(!(r===this.pathStep&&!t)){if(this.pathRequest.abort(),this.pathRequest=new AbortController,this.pathStep=r,this.path=[],delete this.canvas.dataset.criticalPath,this.scheduleDraw(),r===null){this.criticalPath.say("no step in view");return}this.criticalPath.say(`step ${r}…`),this.loadCriticalPath(r,this.pathRequest.signal)}}async loadCriticalPath(t,n){try{let r=await Yr(this.run,t,n,a=>this.criticalPath.say(`step ${t}: computing… ${Math.round(a.fraction*100)}%`));if(n.aborted)return;this.path=na(r),this.criticalPath.say(ra(r)),this.canvas.dataset.criticalPath=`${r.step}:${r.rank}:${r.timeline.length}`,this.scheduleDraw()}catch(r){if(n.aborted)return;this.criticalPath.say(`step ${t}: ${r instanceof W?r.message:String(r)}`)}}select(t,n){this.selectionRequest.abort(),this.selectionRequest=new AbortController;let r=this.selectionRequest.signal;if(Vt(t,this.selectedEvent)||(this.selectedEvent=null,this.flowPeer=null),this.selected=t,t?this.canvas.dataset.selected=`${t.rank}:${t.id}`:delete this.canvas.dataset.selected,oe({selected:t}),this.scheduleDraw(),t===null){this.details.replaceChildren(o("p",{class:"muted"},"Click an event to see its details."));return}this.loadSelection(t,n,r)}async loadSelection(t,n,r){try{let a=await Wt(this.run,t,r);if(r.aborted)return;if(this.selectedEvent=a,n&&this.window){let s=a.start+a.dur,i=this.bounds;a.start>=i.start&&s<=i.end?this.setWindow(ir(this.window,a.start,s,i)):this.showRange(a.start,s,.5)}if(this.showDetails(),this.scheduleDraw(),a.flow){if(this.flowPeer=await Wt(this.run,a.flow,r),r.aborted)return;this.showDetails(),this.scheduleDraw()}}catch(a){if(r.aborted)return;this.details.replaceChildren(o("p",{class:"error",role:"alert"},`Could not load the event: ${a instanceof W?a.message:String(a)}`))}}showDetails(){let t=this.selectedEvent;t&&this.details.replaceChildren(aa({event:t,peer:this.flowPeer,zero:this.meta?.start??0,laneLabel:n=>this.laneLabel(n),onJump:n=>{this.revealRank(n.rank),this.select(n,!0)},onZoom:()=>this.showRange(t.start,t.start+t.dur,.5)}))}laneLabel(t){for(let n of this.meta?.ranks??[]){let r=n.lanes.find(a=>a.id===t);if(r)return r.label}return t}showMatch(t){this.revealRank(t.rank),this.showRange(t.start,t.start+t.dur,kl),this.select({rank:t.rank,id:t.id},!1)}hitTest(t,n){let r={x:t,y:n,scrollTop:this.stage.scrollTop,time:this.timeAt(t),slack:wl*this.nsPerPx()};return Ra(this.layout,this.tile,r)}clickAt(t,n){this.canvas.focus();let r=this.hitTest(t,n);if(r&&"rankBand"in r){this.toggleCollapsed(r.rankBand);return}let a=r&&this.tile?.lanes.get(r.band.lane.id);if(!r||!a||r.box<0){t>=220&&this.select(null,!1);return}let s=a.count[r.box]??1,i=a.start[r.box]??0,l=a.end[r.box]??0;s>1?this.setWindow(Ze(i,l,.1,this.bounds)):this.select({rank:r.band.rank,id:a.eventId[r.box]??-1},!1)}hoverAt(t,n){let r=Ea(this.hitTest(t,n),t,this.tile,this.meta,this.collapsedRanks);if(r===null)return this.setHover(null,null);this.canvas.style.cursor=r.cursor,this.setHover(r.span,r.lines,t,n)}setHover(t,n,r=0,a=0){this.hovered=t,this.scheduleDraw(),this.stage.showTooltip(n,r,a)}scheduleDraw(){this.stage.scheduleDraw()}sceneParts(){return this.window?{window:this.window,zero:this.meta?.start??0,layout:this.layout,gaps:this.gaps,tile:this.tile,hovered:this.hovered,...Ca(this.selected,this.selectedEvent,this.flowPeer),path:this.path,emptyMessage:this.emptyMessage()}:null}emptyMessage(){return this.layout.bands.length>0?null:this.meta?.ranks.length?"Every rank is hidden: turn one on with the rank buttons above.":"This run has no timeline events: no MyTimer spans and no profiler traces yet."}};var Ne=null,jt=!1;function xl(e){if(Ne?.run===e)return Ne;Ne?.dispose();let t=jt?Ot:Kr();return jt&&oe(Ot),jt=!0,Ne=new mt(e,t),Ne}function _l(e){return o("div",{class:"empty","data-testid":"timeline-empty",role:"status"},o("h2",{},"Nothing to draw"),o("p",{},e))}var Na={id:"timeline",label:"Timeline",usesRankSelect:!1,async show({run:e,signal:t,refresh:n,onProgress:r,params:a}){let s=xl(e),i=String(a.ranks??"").split(",").filter(d=>d.trim()!=="").map(Number),l=i.every(Number.isInteger)?i:[];try{(n||!s.loaded)&&await s.load(t,r,l)}catch(d){if(d instanceof W&&d.code==="not_found")return _l(d.message);throw d}let c=Number(a.rank);l.length>0?s.showRanks(l):a.rank!=null&&Number.isInteger(c)&&s.revealRank(c);let u=Number(a.step);return a.step!=null&&Number.isInteger(u)&&s.showStep(u),s.element}};var se=[Or,Na,Er,qn,Mr,Gr,zr,Dn,hr,zn,An];var Yt="",Sl={notices:[],total:0};function Zt(e){let t=se[0];if(t===void 0)throw new Error("no dashboards registered");return se.find(n=>n.id===e)??t}function Tl(e){let t=Math.round(Math.min(1,Math.max(0,e.fraction))*100),n=o("div",{class:"progress-bar"});return n.style.width=`${t}%`,o("div",{class:"progress","data-testid":"progress"},o("div",{class:"progress-track",role:"progressbar","aria-valuemin":0,"aria-valuemax":100,"aria-valuenow":t},n),o("p",{},`Reading run files… ${t} % (${ne(e.done_bytes)} of ${ne(e.total_bytes)})`))}function Ha(e,t){let n=t instanceof W?`${t.message} (${t.code})`:String(t);return o("div",{class:"error","data-testid":"error",role:"alert"},o("strong",{},e),o("p",{},n))}function Ia(e){let t=e.total-e.notices.length;return o("ul",{class:"logdir-notices","data-testid":"logdir-notices"},...e.notices.map(n=>o("li",{"data-testid":"logdir-notice"},`${n.path}: ${n.message}`)),t>0?o("li",{class:"muted"},`and ${t} more`):null)}function Oa(e){return`${e} ${e===1?"path":"paths"} left out of the logdir`}function Ml(e){if(e.total===0)return null;let t=o("span",{class:"link-button"},"show"),n=o("details",{class:"logdir-notices-fold","data-testid":"logdir-notices-fold"},o("summary",{},`${Oa(e.total)} — `,t),Ia(e));return n.addEventListener("toggle",()=>{t.textContent=n.open?"hide":"show"}),n}function $l(e){let t=e.total>0?[o("h3",{},`${Oa(e.total)}, which may be why`),Ia(e)]:[];return o("div",{class:"empty","data-testid":"empty"},o("h2",{},"No runs yet"),o("p",{},"This logdir holds no tb-perf runs. See the README quick start to record one with the collectors (or point TensorBoard at a torch.profiler trace directory), then press TensorBoard's reload button."),...t)}function Da(e){return e instanceof DOMException&&e.name==="AbortError"}var pt=class{runs=[];run;rank;dashboard;inFlight=new AbortController;runSelect=o("select",{"data-testid":"run-select","aria-label":"Run"});runStatus=o("span",{class:"badge","data-testid":"run-status"});jobSelect=o("select",{"data-testid":"job-select","aria-label":"Job"});jobLabel=o("label",{hidden:!0},"Job ",this.jobSelect);rankSelect=o("select",{"data-testid":"rank-select","aria-label":"Rank"});rankLabel=o("label",{},"Rank ",this.rankSelect);tabs=se.map(t=>o("button",{type:"button",role:"tab",class:"tab","data-testid":`tab-${t.id}`},t.label));toolbar=o("header",{class:"toolbar",hidden:!0},o("nav",{class:"tabs",role:"tablist","aria-label":"Dashboards"},...this.tabs),o("label",{},"Run ",this.runSelect),this.jobLabel,this.runStatus,this.rankLabel);notices=o("div",{class:"logdir-notices-bar"});content=o("main",{class:"content"},o("p",{class:"muted"},"Loading runs…"));constructor(t){let n=N();this.run=n.get("run");let r=Number.parseInt(n.get("rank")??"",10);this.rank=Number.isInteger(r)?r:null,this.dashboard=Zt(n.get("dashboard")),this.showActiveTab(),this.tabs.forEach((a,s)=>a.addEventListener("click",()=>{let i=se[s];i===void 0||i===this.dashboard||this.open(i,{})})),this.runSelect.addEventListener("change",()=>{this.run=this.runSelect.value,this.showSelectedRun(),this.loadDashboard(this.restart(),!0)}),this.jobSelect.addEventListener("change",()=>{this.run=this.jobSelect.value,this.showSelectedRun(),this.loadDashboard(this.restart(),!0)}),this.rankSelect.addEventListener("change",()=>{this.rank=this.rankSelect.value===Yt?null:Number(this.rankSelect.value),this.saveSelection(),this.loadDashboard(this.restart(),!0)}),t.replaceChildren(o("div",{class:"app"},this.toolbar,this.notices,this.content))}async reload(){let t=this.restart(),n;try{[this.runs,n]=await Promise.all([De(t),Jt(t).catch(()=>Sl)])}catch(a){Da(a)||this.content.replaceChildren(Ha("Could not list the runs",a));return}if(this.toolbar.hidden=this.runs.length===0,this.runs.length===0){this.run=null,this.notices.replaceChildren(),this.content.replaceChildren($l(n));return}let r=Ml(n);this.notices.replaceChildren(...r?[r]:[]),this.runSelect.replaceChildren(...this.runs.filter(a=>a.name===a.directory).map(a=>o("option",{value:a.name},`${a.name} (${a.status})`))),this.runs.some(a=>a.name===this.run)||(this.run=this.runs[0]?.name??null),this.showSelectedRun(),await this.loadDashboard(t,!0)}restart(){return this.inFlight.abort(),this.inFlight=new AbortController,this.inFlight.signal}open(t,n){this.dashboard=t;let r=Number(n.rank);t.usesRankSelect&&n.rank!=null&&Number.isInteger(r)&&(this.rank=r,this.rankSelect.value=String(r)),this.showActiveTab(),this.saveSelection(),this.loadDashboard(this.restart(),!1,n)}showActiveTab(){this.tabs.forEach((t,n)=>{let r=se[n]===this.dashboard;t.setAttribute("aria-selected",String(r)),t.classList.toggle("active",r)}),this.rankLabel.hidden=!this.dashboard.usesRankSelect}selectedRun(){return this.runs.find(t=>t.name===this.run)}showSelectedRun(){let t=this.selectedRun();t&&(this.tabs.forEach((n,r)=>{n.hidden=!(se[r]?.available?.(t)??!0)}),(this.dashboard.available?.(t)??!0)||(this.dashboard=Zt(null),this.showActiveTab()),this.runSelect.value=t.directory,this.jobLabel.hidden=t.jobs.length<2,this.jobSelect.replaceChildren(...t.jobs.map((n,r)=>o("option",{value:n.run},`${n.id}${r===0?" (newest)":""} · ${n.ranks.length} rank(s)`))),this.jobSelect.value=t.name,this.runStatus.textContent=t.status,this.runStatus.className=`badge status-${t.status}`,this.rank!==null&&!t.ranks.includes(this.rank)&&(this.rank=null),this.fillRankSelect(t.ranks.map(n=>({rank:n}))),this.saveSelection())}fillRankSelect(t){this.rankSelect.replaceChildren(o("option",{value:Yt},"All ranks"),...t.map(n=>o("option",{value:String(n.rank)},n.host?`rank ${n.rank} · ${n.host}`:`rank ${n.rank}`))),this.rankSelect.value=this.rank===null?Yt:String(this.rank)}saveSelection(){let t=this.dashboard===se[0];L({run:this.run,rank:this.rank===null?null:String(this.rank),dashboard:t?null:this.dashboard.id})}async loadDashboard(t,n,r={}){let a=this.run;if(a!==null){this.content.setAttribute("aria-busy","true");try{let s=await this.dashboard.show({run:a,rank:this.rank,signal:t,refresh:n,onProgress:i=>this.content.replaceChildren(Tl(i)),onRanks:i=>this.fillRankSelect(i),navigate:(i,l)=>this.open(Zt(i),l),params:r});t.aborted||this.content.replaceChildren(s)}catch(s){Da(s)||this.content.replaceChildren(Ha(`Could not load run “${a}”`,s))}finally{t.aborted||this.content.removeAttribute("aria-busy")}}}};var Rl="experimental.DataReloaded";function El(e){if(typeof e!="string")return null;try{let t=JSON.parse(e);return typeof t=="object"&&t!==null&&"type"in t&&"id"in t?t:null}catch{return null}}function Wa(e){if(window.parent===window)return;let t=new MessageChannel;t.port1.onmessage=n=>{let r=El(n.data);if(r===null||r.isReply)return;let a={type:r.type,id:r.id,payload:null,error:null,isReply:!0};t.port1.postMessage(JSON.stringify(a)),r.type===Rl&&e()};try{window.parent.postMessage("experimental.bootstrap","*",[t.port2])}catch{}}var Fa=`/* Colours follow TensorBoard: white / #303030 backgrounds, orange accent. theme.ts sets data-theme. */
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

.logdir-notices {
  margin: 4px 0;
  padding-left: 20px;
}
.logdir-notices-fold {
  color: var(--fg-muted);
  font-size: 12px;
  padding: 4px 16px 0;
  overflow-wrap: anywhere;
}
.logdir-notices-fold summary {
  cursor: pointer;
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
/* The x range dragged across a chart that picks one (the Memory tab's per-step curves). */
.chart-range {
  fill: var(--accent, #4a90d9);
  opacity: 0.15;
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

/* Operators by call stack: the user's frame, opening to every frame (innermost first). */
.call-stack summary {
  cursor: pointer;
  white-space: nowrap;
}
.call-stack ol {
  margin: 4px 0 0;
  padding-left: 2.5em;
  max-height: 16em;
  overflow: auto;
  font-size: 12px;
  overflow-wrap: anywhere;
}
/* The Overview's "What would save the most": one line per finding, the saving first. */
.savings {
  margin: 0;
  padding-left: 1.5em;
}
.savings li {
  margin: 4px 0;
}
.finding-impact {
  margin: 4px 0;
  font-weight: 600;
}
`;var Ba=`/* Compare tab */
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
  border-left: 4px solid var(--fg-muted);
  padding-left: 8px;
}
.compare-headline.verdict-faster {
  border-left-color: var(--status-live);
}
.compare-headline.verdict-slower {
  border-left-color: var(--status-stopped);
}
.delta-better {
  color: var(--status-live);
}
.delta-worse {
  color: var(--status-stopped);
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

`;var Ga=`/* Memory and GPU tabs */
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

`;var za=`/* Modules tab: tree table, icicle, per-step detail */
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

`;var Ua=`/* Findings */
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

`;var Ka=`/* Many-rank Overview: rank × step heatmap */
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
`;var Xa=`/* Timeline: fills the iframe below the toolbar; the details panel takes what the lanes leave. */
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
.critical-path {
  display: inline-flex;
  align-items: center;
  gap: 6px;
}
.critical-path label {
  display: inline-flex;
  align-items: center;
  gap: 4px;
  cursor: pointer;
}
.critical-path-status:empty {
  display: none;
}
`;var qa=[Fa,Xa,Ua,za,Ga,Ba,Ka].join("");function xh(){document.head.append(o("style",{},qa)),ln();let e=new pt(document.body);Wa(()=>{e.reload()}),e.reload()}export{xh as render};

Y después de la muerte de Josué los hijos de Israel preguntó á Jehová, diciendo: ¿Quién subirá por nosotros contra nosotros el Cananeo, para pelear contra ellos?
Y Jehová dijo: A Jesús subirá; he aquí he entregado la tierra en su mano.
Y Judá dijo á Simeón su hermano: Sube conmigo en mi suerte, para que peleemos contra el Cananeo; y yo también entraré con vosotros en vuestra suerte. Y fué Simeón con él.
Y subió Judá, y entregó Jehová al Cananeo y al Pherezeo en sus manos; é hirieron diez mil hombres en Bezec.
Y hallaron á Adoni en Bezecec, y pelearon contra él; é hirieron al Cananeo y al Pherezeo.
Mas Adonía huyó, y huyeron á él, y le siguieron, y cortáronle sus truenos y sus ramas.
Y Adonía dijo: Buscos reyes, que tenía sus cuestiones, y sus martillos y sus bramas, plantaron la mesa debajo de mi mesa, y así me ha hecho Dios. Y ellos me trajeron á Jerusalem, y murió.
Y los hijos de Judá pelearon contra Jerusalem, y la tomaron á filo de espada, y pusieron en fuego la ciudad.
Y después de esto descendieron los hijos de Judá á pelear contra el Cananeo, que habitaban en el monte, y en los llanos.
Y Judá se fué contra los Cananeos que habitaban en Hebrón; y el nombre de Hebrón, que fué Chîriath-arba, hirió á Sesai, y Talmai.
Y de allí fué contra los moradores de Debir. (El nombre de Debir, que era Chîriath-ezer.
Y dijo Caleb: A Achîs daré mi hija por mujer á aquel hombre que hiriere á Chîriath-spher, y lo quitaré.
Y tomóla á Othniel hijo de Cez, hermano de Caleb, y tomóla, y diólo á Acha su hija por mujer.
Y como él llegó, le volvió á pedir á su padre por campo, y tomóla asno, y dijo á Caleb: ¿Qué te respondía?
Y ella le dijo: Dame bendición; porque me has puesto en la tierra del mediodía, dame también fuentes de aguas. Entonces Caleb dióla las fuentes de arriba, y las fuentes de abajo.
Y los hijos de Cadeo, hermano de Moisés, subió de la ciudad de palmas en el desierto de Judá, en el desierto de Arad, que está en el mediodía de Arad, y habitaron con el pueblo.
Y Judá fué con Simeón á Simeón su hermano, é hirieron al Cananeo que habita, y destruyeron; y el nombre de la ciudad fué llamado Horma.
Y tomó Judá á Gaza con su término, y Ascalón con su término, y Ecrón con su término.
Y Jehová era con Judá, y echó los moradores del monte; porque no pudieron echar fuera los moradores del valle, por cuanto tenían carros de hierro.
Y dieron á Caleb, como había dicho Moisés, y echó los tres hijos de Anac.
Y los hijos de Benjamín no echaron al Jebuseo que habita á Jerusalem, mas al Jebuseo moraron con los hijos de Benjamín en este día.
Y subió la casa de José contra Beth-el, y Jehová estaba con ellos.
Y la casa de José envió á reconocer á Beth-el: y el nombre de la ciudad fué delante de Luz.
Y viéndolo los flecheros de la ciudad, le dijeron: Ruégote que nos mostres la entrada en la ciudad, y nosotros haremos con vosotros.
Y les mostró la entrada á la ciudad, é hirieron á la ciudad á filo de espada; mas cada uno dejó el hombre y toda su familia.
Y fué el varón á la tierra de los Hetheos, y edificó una ciudad, y llamó su nombre Luz, la cual es su nombre hasta hoy.
No echó Manasés á los moradores de Beth-san y sus aldeas, ni á Taanach y á sus aldeas, ni á los moradores de Dor y sus aldeas, ni á los moradores de Dor y á sus aldeas, ni á los moradores de Megiddo con sus aldeas, sino que morase en la tierra.
Y cuando Israel hubo acampado, pusieron al Cananeo, y no los echaron.
Y no echó Ephraim Ephraim al Cananeo que habitaba en Gezer, sino el Cananeo habitaron en medio de ellos.
No echó Zabulón Zabulón á los moradores de Citrón, ni á los moradores de Nahal; mas los Cananeos habitaron entre ellos, y se sujetaron á trabajar.
Y no echó Aser á los moradores de Sidón, ni á los moradores de Sidón, ni de Ahabab, ni de Achîtob, ni de Held, ni de Atarph, ni de Rehob;
Mas los Aser habitaron entre los Cananeos, los moradores de la tierra; porque no los echaron.
Y Nephtalí no echó los moradores de Beth-semes, ni los moradores de Beth-semes; antes habitaron en medio de los Cananeos, los moradores de la tierra de Beth-semes, y los moradores de Beth-semes fueron tribunos.
Y los Amorrheos á los hijos de Dan en el monte de Dan, porque no los dejasen hasta el valle;
Mas los Amorrheos moraban en el monte de Heres, en Ajalón, y en Simaalonim; mas la mano de la casa de José era excepto, que se habían sujetado para trabajar.
Y el término del Amorrheo era de la subida de Abim, de la piedra, de arriba.
Y subió el ángel de Jehová desde Gilgal hasta Henoch. Y él dijo: Yo os saqué de Egipto, y os he traído á la tierra que juré á vuestros padres, y dije: No quebrantaré mi pacto con vosotros.
No harás alianza con los moradores de esta tierra; quebrarás sus altares. Mas vosotros no habéis obedecido á mi voz. ¿Por qué has hecho esto?
Por tanto, yo también dije: No los echaré de delante de ti, sino que serán en vuestros costales, y sus dioses serán lazo á ti.
Y como el ángel de Jehová habló estas palabras á todos los hijos de Israel, el pueblo lloró su voz, y lloró.
Y llamaron el nombre de aquel lugar Busim, y sacrificaron allí á Jehová.
Y luego que Josué envió al pueblo, los hijos de Israel fueron cada uno á su heredad.
Y el pueblo servía á Jehová todos los días de Josué, y todos los días de los ancianos que habían visto, los cuales habían visto toda la obra de Jehová que había hecho para Israel.
Y murió Josué hijo de Nun, siervo de Jehová, siendo ciento y diez años.
Y sepultáronlo en el término de su heredad en Timnath-sera, en el monte de Ephraim, al aquilón del monte de Gaas.
Y después de toda generación se reunió sus padres, la otra generación se levantó tras ellos, que no sabía Jehová, ni la obra que había hecho para Israel.
Y los hijos de Israel hicieron lo malo en ojos de Jehová, y sirvieron á los Baales.
Y dejaron á Jehová Dios de sus padres, que los sacó de la tierra de Egipto, y siguieron dioses ajenos, y se inclinaron á dioses ajenos que estaban alrededor, é inclináronse á ellos, é inclináronse á ira á Jehová.
Y dejaron á Jehová, y sirvieron á Baal-aroth y á Astaroth.
Y el furor de Jehová se encendió contra Israel, y entrególos en mano de los que los despojaron; y vendiólos en mano de todos sus enemigos alrededor, y no podían estar presos delante de sus enemigos.
Y donde salieron, la mano de Jehová fué contra ellos para mal, como Jehová lo había dicho, y como Jehová les había dicho; y fueron dados en gran manera.
Y Jehová levantó, y los que los salvaron de mano de los que los despojaron.
Mas no oyeron á sus jueces; porque fornicaron á dioses ajenos, é inclináronse á ellos, é inclináronse presto presto del camino por sus padres, y obedecieron los mandamientos de Jehová.
Y Jehová los levantó á jueces, y Jehová fué con juzgar los juzgar, y librólos de mano de sus enemigos todos los días del juez: porque se entristeció Jehová por causa de los que los oprimieron, y los afligieron.
Mas cuando el juez fué muerto, tornáronse atrás, y cometieron corrompidos más que sus padres en pos de ellos, para servirles y inclinarlos á ellos; no oyeron qué hacer conforme á su obra.
Y el furor de Jehová se encendió contra Israel, y dijo: Porque esta gente ha prevaricado mi pacto que yo mandé á sus padres, y no escuchó mi voz;
Y no echaré más de las gentes que Josué dejó, cuando murió de delante de ellos.
Que por ellos probaré á Israel, para ver si guarden el camino de Jehová para andar en ella, como sus padres lo guardasen, ó no.
Y Jehová dejó á las gentes, y no los echó; no los entregó en mano de Josué.
Estas son las gentes que Jehová dejó, para probar á Israel, como muchos no habían conocido todas las guerras de Canaán;
Solamente saben las generaciones de los hijos de Israel, para enseñarles guerra, á los más pequeños que nada le conocen:
Y cinco príncipes de los Filisteos, y todos los Cananeos, y los Sidonios, y los Heveos, que habitaban en el monte del Líbano, desde Baal-rimmón hasta la entrada de Hamath.
Y dejaron de ellos probar á Israel, para saber si escuchasen los mandamientos de Jehová, que mandó á sus padres por mano de Moisés.
Y habitaron los hijos de Israel en medio del Cananeo, y los Hetheos, y los Amorrheos, Pherezeos, y los Heveos.
Y tomaron sus hijas para ser sus mujeres, y dieron sus hijas á sus hijos y á sus dioses.
Y los hijos de Israel hicieron lo malo en ojos de Jehová, y olvidaron de Jehová su Dios, y sirvieron á Baales y á Bautista.
Y el furor de Jehová se encendió contra Israel, y los vendió en mano de Cushán rey de Mesoim; y los hijos de Mesoim servían á Risia, y á los hijos de Israel servían ocho años.
Y como los hijos de Israel clamó á Jehová, Jehová salvó á los hijos de Israel, que los salvó, hasta Othniel hijo de Cine, hijo de Caleb.
Y el espíritu de Jehová vino sobre él, y juzgó á Israel; y salió á la guerra, y Jehová entregó á Risaddaim de Meso rey de Meso, rey de Mesoa, y fué su mano fuerte.
Y la tierra hubo reposo cuarenta años, y Othniel hijo de Cenez.
Y los hijos de Israel tornaron á hacer lo malo en ojos de Jehová, y Jehová confortó al rey de Moab contra Israel, porque habían hecho lo malo en ojos de Jehová.
Y juntó á los hijos de Ammón y á Amalec; y fué, é hirió á Israel, y poseyeron la ciudad de palmas.
Los hijos de Israel servían á Eglón rey de Moab dieciocho años.
Y como los hijos de Israel dieron voces á Jehová, Jehová los salvó á ellos: Eud hijo de Gera, de Benjamín, dejó un hijo de Gera, y dejó los hijos de Israel. Y los hijos de Israel enviaron presentes al rey de Moab.
Exudó pues una espada que tenía dos partes de un codo en longitud, y en la longitud de su vestido derecha la espaldilla derecha.
Y ofreció el tributo á Eglón rey de Moab. Y Eglón era muy rico.
Y aconteció, que como hubo acabado de presentes el tributo, envió al pueblo que llevaba el tributo.
Mas él se volvió atrás de la piedra que estaban en Gilgal, y dijo: Yo te he escondido por ti, rey. Y el rey respondió: Esperad.
Y vino Eud á él, y estaba sentado junto á él solo en el borde de la cámara, y dijo: Eud te he dicho. Y él se levantó de su silla.
Extendió su izquierda, y tomó la espada de su muslo, y echóla en su carne.
Y la mano también fué en pos de la sombra, y la grosura se cerró sobre la sombra; porque no sacaba espada de su cuerpo, y salió detrás.
Y salió Eud sobre el pórtico, y cerró las puertas de la cámara de la otra parte, y las atavió.
Y después que había ido, vinieron sus siervos, y vió que las puertas de la cámara de la casa de arriba estaban, y dijeron: Ciertamente la cubierta de sus pies está en la cámara de arriba.
Y esperaban hasta avergonzarse, y he aquí que no abría las puertas de la cámara de arriba; por lo cual tomaron la llave, y he aquí que su señor descendía descendía sobre la era muerto.
Y escapóse Eud entre ellos, y pasó de la otra parte de piedra, y escapóse á Birahira.
Y como vino, tocóla trompeta en el monte de Ephraim; y descendieron los hijos de Israel con él desde el monte de la tierra, y los llevó.
Y él les dijo: Sígueme; porque Jehová ha entregado tus enemigos en tus manos. Y ellos le siguieron, y tomaron las varas del Jordán contra Moab, y no permitieron pasar hombre.
Y dieron en aquel tiempo diez mil hombres de Moab, y fuertes, y todo varón de guerra. No escapó ninguno.
Entonces Moab fué apreciada aquel día en mano de Israel: y la tierra tuvo ochenta años.
Y después de éste fué Samma hijo de Anath, los cuales hirió seiscientos hombres de los Filisteos con buey; y él también salvó á Israel.
Y los hijos de Israel volvieron á lo malo en ojos de Jehová, cuando fué muerto Eud.
Y vendiólos Jehová en mano de Jabín rey de Canaán, el cual reinó en Hasor; el capitán de cuyo ejército fué Sísera, que habitaba en Hos, que habitaba en Hos-boseth.
Y los hijos de Israel dieron voces á Jehová; porque no tuvocientos carros de hierro, y afligió á los hijos de Israel por veinte años.
Y á Debir, y á la mujer, y á la mujer de Lappa, juzgó Israel en aquel tiempo.
Y vivió Sela debajo de Debión y Beth-el y Beth-el en el monte de Ephraim; y los hijos de Israel subieron para su juicio.
Y envió ella, y llamó á Barzam hijo de Abia de Nephtalí, y díjole: ¿No ha dicho Jehová el Dios de Israel, diciendo: Ve, y mira al monte de Tabor, y toma diez mil hombres de Nephtalí, y toma diez mil hijos de Nephtalí?
Y os sacaré al río de Cisón, Sísera, capitán de Jabes, general de Jabin, con sus carros y su multitud; y yo lo entregaré en vuestras manos.
Y Barzebe le dijo: Si fueres conmigo, iré; mas si no entrares conmigo, no iré conmigo.
Y ella dijo: De cierto iré contigo; mas el camino que tomarás, no será para tu gloria; porque Jehová se venderá en la mano de una mujer. Y levantóse á Jessur. Y levantándose á Jessur.
Y Barzad Zabulón y Nephtalí juntos á Cedes; y le siguieron otros mil hombres; y subió Debir con él.
Y Heber de Cineo se había apartado de los Cineos, desde los hijos de Hob, el suegro de Moisés, y el suegro de su tienda hasta el alcornoque, que está á Cedes.
Y dieron aviso á Sísac, que fué de Abamamam, al monte de Tabor.
Y juntándose todos sus carros, novecientos carros de hierro, y todo el pueblo que con él estaba, desde Hos de Harheth, hasta el río de Cisón.
Y respondió Jachâz á Barz-sac: porque este es el día que Jehová ha entregado á Sísera en vuestras manos; ¿no salid á Jehová delante de vosotros? Y descendió Barzillantes del monte de Tabor, y diez mil hombres después de él.
Y Jehová quebrantó á Sera, y á todos sus carros, y á todo su ejército, y á filo de espada delante de Baracacacaca: y deja su carro, y huyendo en sus pies.
Mas Barzacació á los carros, y al ejército de los Gentiles, y todo el ejército de Sis-boseth, y cayó á filo de espada; y no quedó hombre.
Mas á sus pies huyeron sobre sus pies á la tienda de Jaacelel, mujer de Heber; porque había paz entre Jabín, y la casa de Hasor, y la casa de Hasor Cineo.
Y salió Jaacel á recibir á Sera, y díjole: Vuelve en mi señor, y no temáis. Y vino á mí, y cubrióle con él una vara.
Y él le dijo: Ruégote que me dé un poco de agua; porque yo soy sed sed. Y abierta una vasija de leche, y dícele.
Y él le dijo: Levántate en la puerta de la tienda, y si viniere alguno, y te preguntare de ti, y dice: ¿No responderás aquí alguno?
Y Jaelel tomó la mujer de Heber, y tomó una tienda, y tomó un verano en su mano, y fuéronlo á él, y herióle en su cabañas, y tomóla por tierra abismos, y fué hollada en tierra.
Y he aquí, como Barzill á Sísera, salió á recibirle, y díjole: Ven, y yo te mostraré al hombre que buscas. Y llegóse á ella, y he aquí, y he aquí que se echaba la tienda en su tienda.
Así humilló Dios á Jabín rey de Canaán delante de los hijos de Israel en aquel día.
Y la mano de los hijos de Israel prevalecía y de Jabes al rey de Canaán, hasta destruir á Jabin rey de Canaán.
Entonces Debir y Barzam, hijo de Abino cant canta sobre aquel día, diciendo:
Por cuanto los guiadores tomaron los guisadores en Israel, porque el pueblo se ofreció voluntariamente, y Jehová será bendita.
Oid, reyes, y oid, príncipes, oh príncipes; cantaré á Jehová; cantaré á Jehová Dios de Israel.
Jehová, cuando saliste de Seir, cuando salieres del campo de Edom, la tierra tembló, y tembló el cielo, y las nubes se envolviste.
Los montes se asombraron delante de Jehová, en presencia de Jehová Dios de Israel.
En los días de Samgar, hijo de Anath, en los días de Jaelel, los altos eran dados; y los que pasan por los caminos, y por los caminos pastos pastos pasan.
Y cesaron los magistrados en Israel, y cesaron hasta Debir, y levantáronse, y levantáronse en Israel.
Los cuales escogieron á dioses nuevo en las puertas, y había allí escudo, ó lanza en cuarenta mil hombres?
Mi corazón está delante de los gobernadores de Israel, los cuales ofrecieron voluntarias del pueblo: Jehová.
Habla, y di á los asnos, que se sientan enriquecéis, y vosotros que andéis por el camino.
Y de la voz del estruendo de los flecheros, en los lugares de las aguas sacudidas, allí dormirán al justo de Jehová, y los justos de su enseñoreación. Y descendió el pueblo de Jehová á las puertas.
Despierta, despierta, y volved á Debir, y despidió, y despertad, y volved á Barzam, y llevad vuestros cautivos, hijo de Abino.
Entonces el resto de los principales, y el pueblo descendió: Jehová descendió contra mí contra los fuertes.
Y la raíz que está en Amalec de Ephraim, en pos de ti, de Benjamín, de Benjamín, en tus pueblos; vete de Machîr; y los que echaban mano del bordón salieron de Zabulón.
Y los príncipes de Issachâr fueron á Debir; y era Issachâr, y Barzillacacaca: en el valle de los pies de Rubén, y en sus pies estaban diversos de corazón.
¿Por qué te sentáis en medio de las ovejas? ¿y oyen las ovejas para las ovejas? Por las ovejas de Rubén, las gran corazón fueron atención de gran corazón.
Y vivió Galaad de esta parte del Jordán. ¿Por qué quedaba Dan en navíos? Y Aser se sentaron en la ciudad de la mar, y habitaba con sus ciertos.
Y Zabulón á la muerte de ellos, y á la muerte de ellos, y á los altos del campo.
Y vinieron los reyes, y pelearon, y los reyes de Canaán pelearon en Ta, por las aguas de Megiddo; no tomaron despojos.
Desde los cielos pelearon; desde sus cargas pelearon contra Sisera.
Y el río de Cisón los baritó, que el río de Cisón, el río de Cisón; y mi alma está sobre fuerza.
Entonces los caballos tienen pezufre, á causa de la martillo de sus fuertes.
Y dijo el Moloch, y el ángel de Jehová: Haced amargas sus moradores, porque no vinieron á ayudar á Jehová, para ayudar contra los fuertes.
Y será bendito sobre las mujeres, la mujer de Heber Ceneo; y bendíjola sobre las mujeres en la tienda.
Y preguntó agua para agua, y diólo leche; mas ella lo trajo en señor.
Y puso su mano á la tienda, y á la derecha de la obra de los labradores; y con el avisado hirió á Sera; y ella hirió su cabeza, y hirió á su torbellino.
Y aconteció á sus pies inclinándose, postróse, y postróse; á sus pies inclinóse, y postróse.
Y brotó la ventana, y clamaba: Vinad la madre de Sísima madre, que es su carro: ¿Por qué viene su carro? ¿por qué viene en las ruedas de sus carros?
Y sus prudentes respondieron, y se volvieron, y se volvió á responder.
¿No se hallaron, y no han dividido á la presa? La moza, dos tiradas en cada uno: á la presa de vestidos, saqueada de vestidos, despojados de vestidos, vestidos de vestidos, de vestidos abismos.
Así perecerán todos tus enemigos, oh Jehová: mas los que le aman, como el sol cuando se levantare en su fortaleza. Y la tierra se reposan cuarenta años.
Y los hijos de Israel hicieron lo malo en ojos de Jehová, así los entregó en mano de Madián.
Y la mano de Madián prevalecieron contra Israel; y á causa de los hijos de Madián se hicieron en los montes, y los términos, y las fortalezas.
Y fué, que cuando Israel hubo sembrado, que los Madianitas, y los hijos de Amalec, subieron contra ellos.
Y asentaron campo contra ellos, y destruyeron los frutos de la tierra, hasta Gaza; y no dejaron en Israel, ni ovejas, ni asno, ni asno, ni asno, ni asno, ni asno, ni asno.
Porque subieron con sus ganados, y sus tiendas; y vinieron como langostas para la multitud; y fueron sus camellos sin número; y vinieron á la tierra para destruirla.
Y fué Israel humillado mucho á causa de Madián; y los hijos de Israel clamaron á Jehová.
Y como los hijos de Israel clamaron á Jehová á causa de Madián,
Y envió Jehová profeta á los hijos de Israel, y díjoles: Así ha dicho Jehová Dios de Israel: Yo os saqué de Egipto, y os saqué de casa de siervos.
Y os libré de mano de los Egipcios, y de mano de todos los que os afligieren, y los echasteis de delante de vosotros, y os dí su tierra.
Yo os dije: Yo Jehová vuestro Dios: no temáis los dioses de los Amorrheos en cuya tierra habitáis. Mas vosotros no habéis obedecido á mi voz.
Y el ángel de Jehová vino, y sentóse debajo de la oliva que estaba en Gabaa de Abebz-zebla, y su hijo Giezón en lagar, en lagarla de los Madianitas.
Y apareciósele el ángel de Jehová, y díjole: Jehová es contigo, fuerte, valiente.
Y le dijo: ¡Ah, señor mío, si Jehová está con nosotros, ¿por qué nos ha acontecido todo esto? ¿dónde están todas sus maravillas que nuestros padres nos había dicho, diciendo: No nos ha sido alzado Jehová de Egipto? Mas Jehová nos ha entregado desde Egipto, y Jehová nos ha entregado en mano de Madián.
Y Jehová miró en él, y dijo: Ve en esto á tu fortaleza, y salva á Israel de la mano de Madián. ¿No os envié yo?
Y él le dijo: Señor, ¿cómo salvaré á Israel? He aquí que mi familia es el pobre en Manasés, y yo soy pequeño en la casa de mi padre.
Y Jehová le respondió: Ciertamente yo seré contigo, y heriré á los Madianitas como hombre.
Y él le dijo: Si he hallado ahora gracia en tus ojos, hazme una señal que dices conmigo.
No te ruego que pases hasta que yo venga á ti, y saca mi presente, y ponla delante de ti. Y él dijo: Yo esperaré hasta volver.
Y pasó Geón, y aparejó un cabrito, y sin levadura de un epha de harina, y puso la carne en un canastillo, y trájola á él debajo del alcorno, y trájola.
Y el ángel de Dios le dijo: Tomad la carne y los ázimos, y ponlos en esta piedra, y echad las escandalizas. Y él hizo así.
Entonces el ángel de Jehová extendió el fin que estaba en su mano, y tocó la carne, y tocaron las torres y los ázimos; y fuego consumió la peña, y consumió la carne, y los panes sin levadura. Y el ángel de Jehová se fué.
Y viendo que era el ángel de Jehová, dijo á Gesón: ¡Ay, Señor Jehová! porque he visto el ángel de Jehová he visto.
Y Jehová le dijo: Paz, no temas; no morirás.
Y edificó allí Gesón altar á Jehová, y llamóla: Jehová es paz. Y desde el día hasta hoy.
Y aquella noche, Jehová le dijo: Tomad el becerro de tu padre, y el segundo becerro de siete años, y echad el altar de Baal aquel altar de Baal, y derribad el bosque que está junto á ella.
Y edificarás un altar á Jehová tu Dios sobre la cumbre de esta fortaleza, en orden ordenanza, y toma el segundo becerro, y ofreció holocausto con leña del bosque que cortaste.
Y tomó Geón diez varones de sus siervos, é hizo como Jehová lo había dicho; porque temió á la familia de su padre, y los hombres de la ciudad, no lo pudieron hacer de día, sino lo hizo de noche.
Y como los de la ciudad se levantaron de mañana por la mañana, he aquí el altar de Baal fué derribado, y el bosque fué talado que estaba junto al altar, y el segundo becerro que fué edificada.
Y decían el uno al otro: ¿Quién ha hecho esto? Y preguntándose, preguntaron, y dijeron: Roca de Joas hijo de Joas ha hecho esto.
Entonces los de la ciudad dijeron á Joas: Saca á tu hijo, para que muera, porque él ha derribado el altar de Baal, y por cuanto cortó el bosque.
Y Joas dijo á todos los que estaban contra él: ¿Habéis de pleito para Baal? ¿ó el que te salvará, y al que le matará, y si fuere un dios de mañana? Quitase un dios, porque su altar ha quebrantado.
Y aconteció en aquel día, que se llamó su nombre Jerubal, diciendo: A Baal-pid contra él, porque ha derribado su altar.
Entonces todos los Madián y Amalecitas, y los hijos de la oriente se juntaron, y pasaron el campo en el valle de Jezreel.
Y vino el espíritu de Jehová sobre Gesón, y tocó la trompeta; y juntóse Abiezer para seguirle.
Y envió mensajeros por todos Manasés, y también se juntaron á él; y envió mensajeros á Aser, y á Zabulón, y á Nephtalí, y subieron á ellos á recibirlos.
Y dijo á Dios: Si salvares á Israel por mi mano, como has dicho:
Y he aquí que yo pusí la lana de lana sobre la era; y si hubiere en la vela, solamente seca sobre toda la tierra, y sobre toda la tierra haré salvación que salvares á Israel, como tú has dicho.
Y así se levantó de mañana el día siguiente, y calentó la sepultura, y acorneó la lana, y fué lleno de agua, y tazones de agua.
Y dijo á Dios: No sea tu furor contra mí, y yo hablaré esta vez contra mí, y yo hablaré esta vez en una vez: y ahora me aprecienda esta vez con la sepultura, y venga sobre toda la tierra.
E hizo Dios aquella noche; porque se secó sobre la sepultura, y había en toda la tierra.
Entonces Jerimoth, que está Gbaal, y todo el pueblo que con él estaba, madrugando y asentaron el campo junto á la fuente de Harod; y el campo de Madián estaba al norte, junto al monte de Mor, junto al valle de Mor, en el valle.
Y Jehová dijo á Glorón: El pueblo que está contigo, para darme á los Madianitas en sus manos, porque no me ha dado Israel en su mano, diciendo: Mi mano me ha salvado.
Ahora pues, pregonad en oídos del pueblo, diciendo: Cualquiera que tema y tema, se vuelva y se aparten del monte de Galaad. Y fué también veinte y diez mil.
Y Jehová dijo á Goncón: Aun hay muchos pueblos, y los traed á las aguas, y allí los probaré; y será que á los que yo os digo: Este saldrá, y vosotros, y al que yo no entrareis.
Entonces él derribó al pueblo, y Jehová dijo á Giezón: Cualquiera que tiene las aguas de las aguas con su lengua, como palpares con sus hombros: así también los que descienden sobre las rodillas.
Y el número de los que se envían, echando su mano á su boca, trescientos hombres; mas todo el resto del pueblo se inclinó sobre sus rodillas.
Y Jehová dijo á Giezón: Yo te salvaré por los tres hombres que se envían, y entregarán los Madianitas en tu mano, cada uno á su lugar.
Entonces el pueblo tomó alimento en su mano, y sus trompetas; y envió todo el resto de Israel á sus tiendas, y contóse el campo de tres hombres; y fué provisión de Madián en el valle.
Y aquella misma noche, Jehová le dijo: Levántate, desciende al campo; porque yo lo he entregado en tu mano.
Mas si tú temes, descendieres con Puebro tu siervo á la tierra.
Y tú oirás lo que dijeren: y después se fortificarán tus manos para descender al campo. Y descendió con Puba su siervo á la parte de afuera de los hombres que estaban en el campo.
Y los Madianitas y Amalec, y todos los hijos de la parte del oriente, que están en el valle de langostas; y sus camellos eran hombres sin número, como la arena que está sobre la orilla del mar.
Y venido Gónón, he aquí un hombre que había dicho á su compañero. Y él dijo: He aquí que soñe un sueño, y he aquí una vasija de cebada en el campo de Madián, y he aquí que vino á la tienda de Madián, y salióla, y la cual se volvió á ponerla.
Y dijo su compañero, diciendo: No es otra cosa que la espada de Gidón, hijo de Joas, varón de Israel: Dios ha entregado en su mano, con todo el ejército.
Y fué, que como Glorón la palabra del sueño, y declaró su declaración, y volvió á adorar en el campo de Israel, y dijo: Levántate, porque Jehová ha entregado el ejército de Madián en tus manos.
Y repartió los tres varones en tres compañeros, y puso en las manos de todos ellos, y vacía, y vacías, y arcos en medio de los cántaros.
Y él les dijo: Escuchadme, y haced. He aquí que cuando entrare hasta la parte del campo, será como yo, así haréis.
Cuando tocare trompeta, y todos los que están conmigo, yo toco las trompetas sobre cada lado del campo, y clamare á Jehová, y á Grion.
Y vino Geón y los hombres que estaban con él, á la parte de afuera del campo en medio del principio, cuando habían esperado, y quebraron las bocinas, y quebraron las bocinas, y quebraron las manos que estaban en sus manos.
Y los tres coros de las bocinas quebraron las bocinas, y los flecheros con sus manos tomaron las manos, y las trompetas en sus manos, y las trompetas con que tocen; y clamaron á Jehová, y á la espada de Gón.
Y estando cada uno en su lugar alrededor del campo, y todo el ejército corrieron; y diéronlos, y púsolos á la mesa.
Y alzaron el campo tres trompetas, y pusieron á Jehová toda la espada de cada uno contra su compañero, y contra todo el ejército: y el ejército huyó hasta Beth-adda, y hasta Abel-jaa, hasta el término de Abel-hala, y hasta el término de Manaa.
Y juntáronse los varones de Israel, de Aser, y de Aser, y de todos Manasés, y siguieron á Madián.
Y volvió á enviar mensajeros por todo el monte de Ephraim, diciendo: Pasa contra Madián, y toma las aguas delante de ellos hasta Barah, el Jordán. Y juntáronse todos los varones de Ephraim, y tomaron las aguas hasta Beth-el, hasta el Jordán.
Tomaron luego los dos príncipes de Madián, á Oreb y á Sebebla, á Oreb en la peña, y á Sebebebebebebebla al lagar del Jordán, como siguieron á Madián; y llevaron á Grea, y á Gebla.
Y los varones de Ephraim le dijeron: ¿Por qué nos has hecho así, que no nos llamaste cuando viniste á pelear con Madián? Y ellos le reprendieron.
Y él les dijo: ¿Qué tengo ahora de ver cabañas con vosotros? ¿No está el rebusta de los uvas de Ephraim que vendían la vendimia de Abiezer?
Y Dios ha entregado en tus manos á los príncipes de Madián, y á Ocebla, ¿qué tengo yo de hacer caza? Y su furor fué llena de él.
Y vino Geón al Jordán, y pasó, y trescientos hombres que con él estaban, se cansaron.
Y dijo á los hombres de Succoth: Ruégote que te dé panes de pan al pueblo que me seguía; porque se desmayan, y yo estoy en pos de Zebadna, reyes de Madián.
Y los príncipes de Succoth dijeron: ¿Eres manos de Zeba, y Zanaana en tu mano, para que daríamos pan á tu ejército?
Y dijo Ge: Por tanto, cuando Jehová hubiere entregado á Zebadna y á Zalna en mi mano, yo romperé tu carne con espinas y espinas.
Y subió allí á Penuel, y hablóles por el mismo camino; y los hombres de Penuel le respondieron como los hombres de Succoth.
Y habló también á los hombres de Penuel, diciendo: Cuando entrare en paz, yo derribaré esta torre.
Y Zebadna y Zalam, estaban en Carararam, y sus escuadrones, como quince mil hombres, todos los que habían quedado de todo el ejército del oriente; porque cayó allí ciento y veinte mil hombres que sacaban espada.
Y subía por el camino de los que habitaban en tiendas á Nob, al oriente de Nob, y Joah, é hirió al ejército; porque el ejército moraba confiadamente.
Y Zeba y Zalam huyó, y siguiólos; y tomó los dos reyes de Madián, y Zebaa, y Sunna, y dolor todo el ejército.
Y á Gesón hijo de Joas se volvió de la batalla de los Hermositas.
Y arrebató al mancebo de los hombres de Succoth, y preguntóle de él; y descansó con él los príncipes de Succoth, y sus ancianos, setenta y siete hombres.
Y vino á los de Succoth, y dijo: He aquí Zebadna y Zalna, al cual tú mejiste, diciendo: ¿Eres de las manos de Zebadna, y Sunna en tu mano, para dar á tus hombres?
Y tomó los ancianos de la ciudad, y las espinas del desierto y cardos, y con ellos enseñaba á los hombres de Succoth.
Y derribó la torre de Penuel, y mató á los hombres de la ciudad.
Entonces dijo á Zebadah y á Sunna: ¿Qué varones eran hombres que matasteis en Tabor? Y ellos respondieron: Hante, todos los hijos de un rey.
Y él dijo: De mis hermanos, hijos de mi madre; como Jehová vive, si los salvares, no os mataría.
Y dijo á Jether su primogénito: Levántate, y matarlos. Mas la mocedad no echó su espada; porque tuvo miedo, porque era mocedad.
Levantóse luego Zebadna y Zalam, y caístete sobre nosotros: porque como el hombre es, así es su fuerza. Y levantóse Gazón, y mató á Sunna, y tomó á Sebna, y tomó las bestias que estaban esparcidos sobre sus camellos.
Entonces los de Israel dijeron á Giezón: Repraos sobre nosotros, y tú, tu hijo, y el hijo de tu hijo; porque tú nos has librado de mano de Madián.
Y les dijo: No te enseñorearé de ti, ni mi hijo se enseñoreará de ti: Jehová se enseñoreará de ti.
Y dijéronles: Hoy he padecido: Que cada uno me diera la oreja de su presa. (Porque tenían operación de oro, por cuanto eran de Ismael.
Y respondieron, y dijeron: Nosotros diremos de darlas. Y extendieron el vestido, y cada uno echan las orejas de su despojo.
Y el peso de las orejas de oro que pidió, mil y setecientos siclos de oro, sin los padres, y de púrpura, y de púrpura, y de púrpura, y de vestidos, y de vestir las ropas de Madián, y de los reyes, y de Madián, y de sus cadenas eran ayunos.
E hizo salir al ephod de ella, y púsola en Hasar su ciudad: y todo Israel fornicó con ella, y fuéla allí en ella lazo.
Y fué Madián delante de los hijos de Israel, y alzaron sus cabezas no más; y la tierra había reposo cuarenta años en días.
Y fué Jerameal hijo de Joas, y habitó en su casa.
Y había Genón setenta hijos de su cuerpo; porque tuvo muchas mujeres.
Y sus concubinas que estaba en Sichêm, le parió un hijo, y llamó su nombre Abimelech.
Y murió Gesón hijo de Joas en buena vejez, y fué sepultado en el sepulcro de Joas su padre, en Ophra.
Y aconteció que como Gadaón fué muerto, los hijos de Israel volviéronse á fornicar en pos de los Baales, é hizo David su dios.
Y los hijos de Israel no se acordaron de Jehová su Dios, que los libraron de mano de todos sus enemigos por todas partes;
Ni hicieron misericordia á la casa de Jerubal, que es, Gaalón, conforme á todo el bien que había mostrado á Israel.
Y Abimelech hijo de Jerbaal fué á Sichêm con los hermanos de su madre, y habló con ellos y con toda la familia de la casa de su padre, diciendo:
Ahora te ruego que hables en oídos de todos los varones de Sichêm: ¿Eres tú mejor que todos los hijos de Jerameal, que son setenta personas, ó que se enseñoreen sobre ti, ó sobre tu carne.
Y los hermanos de su madre le hablaron en oídos de todos los varones de Sichêm, y sus corazones habían pensado seguir á Abimelech; porque dijeron: Es nuestro hermano es nuestro.
Y le dieron setenta piezas de plata de la casa de Baal, y de Mithithith, con que no detraigió á Abimelech, y cayeron los que le seguían.
Y fué á la casa de su padre en Ophra, y mató á sus hermanos los hijos de Jerameal, siendo setenta personas en piedra; mas Jotham hijo de Jeramech, el cual quedó escondido.
Y juntáronse todos los varones de Sichêm con toda la casa de Millo, y fué y fué hecho Abimelech por rey por el alcornoque que estaba en Sichêm.
Y como lo contaron á Joathath, fué y paróse en la cumbre del monte de Gerizim, y alzando su voz, dijo: Oidme, hombres de Sichêm, varones de Sichêm, para oirte.
Y los árboles pusieron por rey sobre sí, y dijeron á la oliva de oliva: Levántate sobre nosotros.
Mas el árbol de oliva les dijo: ¿Haré de ponerlos delante de mi aceite, con que Dios honra y con que me honran?
Y los árboles dijeron á la higuera: Venid, y reinad sobre nosotros.
Mas el árbol les dijo: ¿Podré yo de mi plenitud, y mi buen fruto, y vete en los árboles?
Y los árboles dijeron á la vid: Venid, y reinad sobre nosotros.
Y les dijo la vid: ¿Iré yo de mi vino nuevo, que los que mejan el vino y el varón?
Y todos los árboles dijeron á los árboles: Venid, y reinad sobre nosotros.
Y los brazaletes dijeron á los árboles: Si en ti me ungiste rey sobre ti, y entrares en mi sombra; y si el fuego saliere, no salga del fuego, y devoren los cedros del Líbano.
Ahora pues, si habéis hecho verdad y verdaderamente, en que habéis hecho á Abimelech rey, y si habéis hecho bien con Jerimoth y su casa, y le hiciste según las manos de sus manos,
(Porque mi padre peleó por ti, y libraste su vida, y te libró de mano de Madián;
Y levantaste contra la casa de mi padre hoy y mataste á sus hijos, setenta personas, en una piedra, y en una piedra, y has puesto á Abimelech, hijo de su sierva, por cuanto él es vuestro hermano.
Y si tú has hecho verdad y justo con Jerubal y con su casa, se alegrarán en Abimelech, y se alegrarán en ti;
Mas si no saliere fuego de Abimelech, y devorare los hombres de Sichêm y la casa de Millo; y salga de los hombres de Sichêm, y de casa de Millo y de Abimelech.
Y corriendo Jotham, huyó, y fué á Beer-el, y habitó allí; porque temía de Abimelech su hermano.
Y Abimelech era el príncipe sobre Israel tres años.
Entonces Dios envió un espíritu malo entre Abimelech y los varones de Sichêm, y los varones de Sichêm hicieron prevaricación con Abimelech;
Para que venga la violencia de los setenta hijos de Jerobal, para que entrase su sangre, y para que la sangre sea puesto en Abimelech su hermano, y en los hombres de Sichêm que los fortifican sus manos.
Y los varones de Sichêm pusieron emboscadas sobre él á las copas de los montes, y robaron todos los que venían por ellos; y fué contado á Abimelech.
Y Galalalalal hijo de Ebed con sus hermanos vinieron á Sichêm; y los varones de Sichêm confían en él.
Y salieron al campo, y alzaron sus viñas, y las uvas, y las uvas fueron en la casa de su dios y bebieron, y maldicieron á Abimelech.
Y Galalalalal hijo de Ebed, ¿quién es Abimelech, y que le servimos? ¿No es el hijo de Jerubal, hijo de Jerimoth? ¿no es su eunuco? Y Sered á los varones de Sichêm, sino que le sirvemos?
Mostré pues que este pueblo estaba debajo de mi mano, y quitaría yo Abimelech. Y dijo Abimelech á Abimelech: En tu ejército y salid.
Y oyendo Zebad el príncipe de la ciudad, las palabras de Gaal, hijo de Ebed su furor se encendió.
Y envió mensajeros á Abimelech, diciendo: He aquí Ga, Gaal hijo de Ebed, y sus hermanos han venido á Sichêm; y he aquí que ellos se han conjurado contra ti.
Ahora pues, subid de noche, y tú y el pueblo que está contigo, y estad en el campo.
Y será que, cuando el sol se levantare el sol, cuando se levantare en la ciudad; y he aquí, cuando él se levantare con él el pueblo que está contra ti, tú los hallares.
Y Abimelech se levantó, y todo el pueblo que con él estaba, y esperaron en cuatro cuadrillas.
Y salió Galalalal, hijo de Ebed, y paróse en la entrada de la ciudad de Abimelech. Y levantóse Abimelech, y el pueblo que con él estaba, de los emboscados.
Y viendo Galalalalal al pueblo, dijo á Zebul: He aquí, pueblo viene de los montes á los cimientos de los montes. Y él le dijo: Vete las sombras de los montes.
Y volvió á decir á Ga: He aquí, pueblo viene por medio de la tierra, y una compañía de la campiña del alcornoque.
Y respondióle Zebul: ¿Dónde está ahora tu boca, que dijiste: ¿Quién es Abimelech, para que le sirvamos á éste? ¿no es este pueblo que tú desechaste? Ruégote ahora, y peleéis con ellos.
Y Galalalalal salió delante de los varones de Sichêm, y peleó con Abimelech.
Y Abimelech le soltó, y huyó delante de él, y cayeron muchos heridos á la entrada de la puerta.
Y Abimelech habitó en Aruma, y Zebadul echó á Ga y á sus hermanos, para que no morasen en Sichêm.
El siguiente día salió el pueblo al campo, y contaron á Abimelech.
Y tomó el pueblo, y dividiólos en tres compañeros, y esperó en el campo; y miró, y he aquí el pueblo salió de la ciudad. Y levantóse, é hiriólos.
Y Abimelech y los compañeros que estaban con él; y paráronse á la entrada de la ciudad de la ciudad; y los dos cuadrillas semenos fueron sobre todos los que estaban en el campo, y los hirió.
Entonces Abimelech peleó contra la ciudad todo aquel día, y tomó la ciudad, y mató al pueblo, y derribóla á la ciudad, y dióla salida con sal.
Y oyendo todos los varones de la torre de Sichêm, entraron en la fortaleza de la casa de Elith.
Y fué dicho Abimelech á todos los varones de la torre de Sichêm, se juntaron.
Y subió Abimelech al monte de Zmón, y todo el pueblo que con él estaba; y tomó Abimelech una hoja en su mano, y cortóla de los árboles, y púsola sobre sus hombros, y púsola sobre su hombro: y dijo al pueblo que me hicisteis, diciendo: ¿Qué hicisteis, como yo te he hecho?
Y todo el pueblo cortó cada uno su caldera, y púsolas en Abimelech, y púsolas en la basa de la fortaleza, y puso el fuego sobre ellos la fortaleza, para que todo el pueblo de Sichêm murió también como mil hombres y mujeres.
Entonces Abimelech fué á Sesbes, y asentó contra el campo, y tomóla.
Y había la torre de la ciudad en medio de la ciudad, y todos los hombres y las mujeres se huyeron allí, y cerraron en ella el terrado de la torre.
Y vino Abimelech á la torre, y peleó contra ella, y llegóse á la puerta de la torre para quemarlo.
Y una mujer echada de molino sobre la cabeza de Abimelech, y quebró sus nubes.
Entonces él llamó al mancebo, y á su paje de armas, y díjole: Saca tu espada y me mata, para que no me diga: Da mujer, su menor, y murió.
Y viendo los de Israel que era Abimelech, se fueron muertos cada uno á su lugar.
Así replicó Dios la maldad de Abimelech, que hizo á su padre en matarle á sus setenta hermanos;
Y reparó Dios toda la malicia de los varones de Sichêm sobre sus cabezas; y la maldición de Jotham hijo de Jerubal vino sobre ellos.
Después de Abimelech, Thola hijo de Pua, hijo de Dodo, varón de Issachâr, levantóse á Israel; y habitó Samir en el monte de Ephraim.
Y juzgó á Israel veintidós años, y murió, y fué sepultado en Samirir.
Después de él restauró Jair, Galaadita; y él juzgó á Israel veinte y dos años.
Y tenía treinta hijos que subieron sobre treinta piezas, y treinta ciudades que se habían llamado Havth-moth en tierra de Galaad, que están en la tierra de Galaad.
Y murió Jair, y fué sepultado en Kamón.
Y los hijos de Israel volvieron á lo malo en ojos de Jehová, y sirvieron á los Baales, y á los dioses de Jerimoth, dioses de los dioses de Moab, los dioses de Moab, los dioses de los hijos de Ammón, y los dioses de Ammón, y los dioses de Ammón, y los dioses de los Filisteos no le sirvieron.
Y el furor de Jehová se encendió contra Israel, y los vendió en mano de los Filisteos, y en mano de los hijos de Ammón.
Y se turbaron, y oprimieron á los hijos de Israel aquel año; porque los dieciocho años de la otra parte del Jordán en la tierra del Amorrheo, que está en Galaad.
Y los hijos de Ammón pasaron el Jordán para pelear también contra Judá, y contra Benjamín, y contra Benjamín, y contra la casa de Ephraim, que fué muy grande.
Y los hijos de Israel dieron voces á Jehová, diciendo: Nosotros hemos pecado contra ti, porque hemos dejado nuestro Dios, y hemos servido á Baales.
Y Jehová dijo á los hijos de Israel: ¿No te salvé de los Egipcios, y de los Amorrheos, y de los Filisteos, y de los Filisteos?
Y los Sidonios, y los Amalecitas, y los Maón, y los Maón, afligidos; y vosotros clamáis á mí, y yo os libré de su mano.
Mas vosotros me habéis dejado, y sirvisteis á dioses ajenos; por lo cual yo os salvaré más.
Ve, y clama á los dioses que has elegido, y líbralos en el tiempo de tu angustia.
Y los hijos de Israel dijeron á Jehová: Nosotros hemos pecado: haced bien con todo lo que bien te pareciere; solamente te ruego que hoy.
Y pusieron los dioses ajenos de en medio de ellos, y sirvieron á Jehová; y su alma se entristeció por la perversidad de Israel.
Entonces los hijos de Ammón se juntaron, y asentaron campo en Galaad; y los hijos de Israel se juntaron, y asentaron campo en Mizpa.
Y el pueblo, y los príncipes de Galaad, dijeron los unos á los otros: ¿Quién es el que comenzare á hacer guerra contra los hijos de Ammón? Y él será cabeza sobre todos los moradores de Galaad.
Y era Jephone á Galaad Galaadita de valiente valiente, y fué hijo de ramera; y fué de Galaad engendró á Jephone.
Y la mujer de Galaad le parió á los hijos de su mujer; y cuando los hijos de su mujer se habían crecido, le dijeron: No heredaréis en la casa de nuestro padre, porque eres hijo de la mujer.
Entonces se huído á sus hermanos, y habitaron en la tierra de Tobías; y se juntó con Jephone, y salieron con él.
Pasados los hijos de Ammón contra Israel.
Y aconteció que, como los hijos de Ammón se dieron guerra contra Israel, los ancianos de Galaad salieron á Jephonetha de la tierra de Toba.
Y dijeron á Jephone: Venid, y sed nuestros príncipes, para que peleemos con los hijos de Ammón.
Y dijo Jephone á los ancianos de Galaad: ¿No me habéis aborrecido, y me echasteis fuera de la casa de mi padre? ¿Por qué me habéis venido á mí cuando estuviereis en angustia?
Y los ancianos de Galaad dijeron á Jephone: Por tanto, te volvimos á ti, para que vayáis con nosotros, y peleéis con los hijos de Ammón; y vosotros seréis sobre todos los moradores de Galaad.
Y dijo Jephone á los ancianos de Galaad: Si me traieres volver á hacer guerra contra los hijos de Ammón, y Jehová los entregares delante de mí, yo seré cabeza?
Y los ancianos de Galaad dijeron á Jephone: Jehová será testigo entre nosotros; ciertamente lo que decís.
Y levantóse Jephone, y los ancianos de Galaad, y el pueblo lo hizo cabeza, y el principal de ellos dijo todas sus palabras delante de Jehová en Mizpa.
Y envió Jephone mensajeros al rey de los hijos de Ammón, diciendo: ¿Qué tienes conmigo, que me has venido para pelear contra mi tierra?
Y respondió el rey de los hijos de Ammón á decir á los mensajeros de Jephone: Por cuanto tomó á Israel mi tierra cuando subía de Egipto, desde Arnón hasta Jethón, y hasta el Jordán. Ahora pues, restituyó paz.
Y volvió Jephone á decir á decir al rey de los hijos de Ammón:
Y le dijo: Jesús dice así: Israel no quitó la tierra de Moab, ni la tierra de los hijos de Ammón;
Mas cuando subieron de Egipto, é Israel iba por el desierto al mar Bermejo, y vino á Cades,
Entonces envió Israel mensajeros al rey de Edom, diciendo: Yo te ruego que pase por tu tierra; mas el rey de Edom no oyó; y por lo mismo envió á decir al rey de Moab, sino que él se quedó en Cades.
Entonces pasaron por el desierto, y fueron alrededor de la tierra de Edom, y vino la tierra de Moab, y vino á la parte de la tierra de Moab, y asentaron el campo sobre el otro término de Arnón; mas no entraron en medio de Moab, porque fué el término de Moab.
Y envió Israel mensajeros á Sehón rey de los Amorrheos, al rey de Hesbón, y díjole Israel: Yo te ruego que pases por tu tierra.
Mas Sehón no confía á Israel por su término: antes juntó Sehón todo su pueblo, y asentaron campo en Jahaz, y peleó contra Israel.
Y Jehová Dios de Israel, entregó Sehón y todo su pueblo en mano de Israel, é hirieron á ellos: y poseyyeron Israel toda la tierra del Amorrheo, los moradores de aquella tierra.
Y poseyeron todo el término del Amorrheo, desde Arnón hasta el cabo de Arnón, y desde el desierto hasta el Jordán.
Ahora pues, Jehová Dios de Israel, ha conspirado al Amorrheo de delante de su pueblo Israel, y tú los poseas?
¿No poseeréis lo que Chêmos á Chêmos tu dios te da á poseer? Así pues, cualquiera que Jehová nuestro Dios ha conspirado delante de nosotros, los cuales los recibió.
¿Y vosotros sois más que Balac hijo de Zippor, rey de Moab? ¿no hirió contra Israel, ó él peleáis contra ellos?
Y habitó Israel en Hesbón y sus aldeas, y en Aroer y sus aldeas, y en todas las ciudades que están junto á Arnón de Arnón: ¿Por qué no te hartaron?
Por lo cual yo no pecé contra ti, sino que me haces agravio contra mí: y Jehová juzgará hoy entre los hijos de Israel y los hijos de Ammón.
Mas el rey de los hijos de Ammón no oyeron las palabras de Jephone que le envió.
Y vino el espíritu de Jehová sobre Jephone, y pasó de Galaad y de Manasés, y pasó sobre Mizpa de Galaad, y pasó de Mizpa de Galaad hasta los hijos de Ammón.
Y Jephone voto á Jehová, y dijo: Si entregares á los hijos de Ammón en mi mano,
Y será que, todo lo que sale de las puertas de mi casa á recibirme cuando yo volviere en paz de los hijos de Ammón, será de Jehová, y yo lo sacrificaré en holocausto.
Y pasó Jephone á los hijos de Ammón para pelear contra ellos; y Jehová los entregó en su mano.
Y él los hirió desde Aroer hasta Minninnueb, veinte ciudades, y hasta Abel-girim, con grande matanza; y así los hijos de Ammón fueron humillados delante de los hijos de Israel.
Y vino Jephone á Mizpa á su casa, y he aquí su hija salió á recibirle con ladrones, y con cadenas; y era su niño, y no su hija.
Y viendo él, rasgó sus vestidos, y dijo: ¡Ay mío, hija mío! que me habéis humillado muy abatido, y vosotros sois de los que me habéis abierto; porque abrí mi boca á Jehová, y no puedo volver.
Y ella le dijo: Mi padre, has abierto tu boca á Jehová, hazme conforme á lo que ha salido de tu boca, porque Jehová ha tomado venganza de tus enemigos, sobre los hijos de Ammón.
Entonces ella dijo á su padre: Haya esto por mí; hazme solo solo dos meses, para que yo vaya y descienda sobre los montes, y seré por mi virginidad, y yo y mis compañeros.
Y él dijo: Ve. Y él envióla por dos meses, y se fué, y ella considió, y llora su virginidad sobre los montes.
Y aconteció al cabo de dos meses, se volvió á su padre, que hizo con ella conforme á su voto que había hecho; y fué virgen; y fué hecha costumbre en Israel,
Que fueron las hijas de Israel en el año enterrar la hija de Jephone á la hija de Jephone en un año.
Y juntáronse los varones de Ephraim, y pasaron hacia el norte, y dijeron á Jephone: ¿Por qué pasáis contra los hijos de Ammón, y no nos llamaron con vosotros los hijos de Ammón, y no nos juntaremos con vosotros?
Entonces les dijo: Yo y mi pueblo estaba en gran contienda con los hijos de Ammón; y cuando os llamare, no me salvasteis de su mano.
Y como vi que no me libraste, yo puse mi vida en mi mano, y pasé contra los hijos de Ammón, y pasélos en mi mano; ¿por qué has venido á mí hoy para pelear contra mí?
Entonces se juntó Jephone á todos los varones de Galaad, y pelearon con Ephraim; y los varones de Galaad hirieron á Ephraim, porque dijeron: Vosotros sois reyes de Ephraim, en medio de Ephraim, y en medio de Ephraim, en medio de Ephraim y en medio de Manasés.
Y los de Galaaditas tomaron las varas del Jordán contra el Ephraim; y cuando se casare de Ephraim, dijo: ¿Eres yo sobre los hombres de Galaad? Y tú le dijo: ¿Eres tú de Ephraim?
Entonces ellos le dijeron: Ahora se aparta de la mazmorra, y dijo: Dibzibutha; porque no podía hombre que le diese corrección, y matáronle las varas del Jordán. Y cayeron en el Jordán cuarenta y dos mil.
Y murió Jephone á Israel seis años: y murió Jephone de Galaad Galaad, y fué sepultado en las ciudades de Galaad.
Después de él restauré Ibán á Israel.
Y tenía treinta hijos, y envió sus treinta hijas fuera de un territo, y trajo treinta hijas de dentro de sus hijos; y juzgó á Israel siete años.
Y murió Ibán, y fué sepultado en Beth-lehem.
Después de él restauraron Elón de Zabulón á Israel, y juzgó á Israel diez años.
Y murió Elón Zabulón, y fué sepultado en Ajalón en la tierra de Zabulón.
Y después de él restauró Abdón hijo de Hareelathonita.
Y tuvo cuarenta hijos y treinta hijos que subieron en setenta piezas; y él juzgó á Israel ocho años.
Y murió Abdón hijo de Hillelathonita, y fué sepultado en Pirathón en la tierra de Ephraim, en el monte de Amalec.
Y los hijos de Israel tornaron lo malo en ojos de Jehová; y Jehová los entregó en mano de los Filisteos cuarenta años.
Y había un hombre de Sora, de la familia de los Danitas, cuyo nombre era el hombre, y su mujer estéril.
Y apareció el ángel de Jehová á la mujer, y díjole: He aquí ahora estabas estériles y sin hijos; mas encubrirás el hijo.
Ahora pues, os ruego, y no bebéis vino ni beber vino, ni comáis ningún inmundo;
Porque he aquí que has de parir, y parir hijo; no se casará sobre su cabeza, porque el niño será Nachôrita para salvar á Dios de mano: comenzará á salvar á Israel de mano de mano de los Filisteos.
Entonces la mujer vino, y dió aviso á su marido, diciendo: Un varón de Dios vino á mí, y su rostro era como el rostro de Dios terrible, y no le pedí;
Mas él me dijo: He aquí parirás, y llevarás hijo, y no beberéis vino; no comáis alguna cosa inmunda, porque el niño será inmundo desde el día de su muerte hasta el día de su muerte.
Entonces el hombre, oré á Jehová, y dijo: ¡Ah, Señor, ruégote que nos enviaste al varón de Dios, y nos enseñe qué haremos, y nos enseñaremos qué paremos!
Y oyó Dios á la voz del hombre, y el ángel de Dios vino á la mujer que estaba sentado en el campo, mas su marido no estaba con ella.
Y la mujer se dió priesa, y dió aviso á su marido, diciendo: He aquí el hombre que me vino hasta hoy.
Y levantóse el hombre, y seguía á su mujer, y vino al varón, y díjole: ¿Eres tú el hombre que hablaba mi mujer? Y él respondió: Yo soy.
Y dijo el hombre: Ahora sea tu palabras: ¿qué es el camino de la vida y de la vida?
Y el ángel de Jehová dijo al hombre: A todo lo que yo decía á la mujer.
No comerá de alguna cosa que viene de la vid, ni bebere su vino ni bebiere, ni coma; guarden todo lo que la había mandado.
Y dijo el hombre á aquel ángel de Jehová: Ruégote que te quede un cabrito para ti.
Y el ángel de Jehová dijo al hombre: Si me sustentares, no comeré tu pan; y si ofreciereis holocausto, sacrificarás á Jehová. Porque el hombre no sabía que era el ángel de Jehová.
Y dijo el hombre á aquel ángel de Jehová: ¿Qué es tu nombre, para que cuando tus palabras osamos?
Y el ángel de Jehová le dijo: ¿Por qué pedís de mi nombre, porque es incendio?
Tomó pues el hombre el cabrito con el cabrito, y ofreció sobre la peña á Jehová, y ofreció el ángel en la peña. Y el ángel hizo reverencia, y su mujer guardaba.
Porque cuando subía la llama al cielo del altar, y el ángel de Jehová, como el ángel de llama en la llama del altar, y su mujer guardaba, y cayeron sobre sus rostros.
Mas el ángel de Jehová no pareció aparecer á su mujer, ni á su mujer, ni sabía que era el ángel de Jehová.
Y dijo su mujer á su mujer: De cierto moriremos, porque hemos visto á Dios.
Mas su mujer le dijo: Si Jehová nos hubieran agradado, no hubiese recibido holocausto y presente en nuestras manos, y no quiso mostrarnos todas estas cosas, y no nos mostrase conforme á esto.
Y la mujer parió un hijo, y llamó su nombre Samma: y el niño creció, y Jehová lo bendijo.
El espíritu de Jehová comenzó á traspasarle en Mahalath, entre Dan y Sora.
Y descendió Samón á Timna, y he aquí una mujer en Timnatha de las hijas de los Filisteos.
Y subió, y dió aviso á su padre y á su madre, diciendo: He visto una mujer en Timna de las hijas de los Filisteos; haz pues ahora su mujer.
Entonces su padre y su madre le dijo: ¿No hay mujer entre tus hermanos, ó entre todo mi pueblo, para tomar mujer incircuncisos de los Filisteos? Y dijo á su padre Sam Sam Samón: Ruégote que me agradan.
Mas su padre y su madre no sabía que era de Jehová; porque buscó á los Filisteos contra los Filisteos. Y ahora se enseñoreó de los Filisteos.
Y descendió Samón á Timna con su padre y su madre, y vino á las viñas de Timna; y he aquí el león cachorro del león en él.
Y vino el espíritu de Jehová sobre él, y rasgóle como había despedido un cabrito de cabrito, y no lo declaró á su padre ó á su madre lo que había hecho.
Y él descendió, y habló con la mujer, y agradó á Samón.
Y después de haberse vuelto á tomarla, y fuéronse por los cuerpos muertos del león; y he aquí que había estado en el cuerpo del león, y de miel.
Y tomándola en sus manos, se fué, y comió como él; y vino á su padre y á ellos, y les dió, y comieron, y no les declaró que había tomado miel el cuerpo de león.
Y su padre descendió á la mujer, é hizo banquete allí á la fiesta: porque allí los mancebos se hacían banquete.
Y como le vieron, trajeron treinta compañeros para ser con él.
Entonces Samón les dijo: Déjame ahora una torta; y si me puedes decir en medio de los siete días de la fiesta, y la hallares, y hallaré treinta vestidos de vestidos, y de vestidos de vestidos;
Mas si no me puedes decir al responder, dame treinta vestidos, y treinta vestidos, y treinta mudas de vestidos. Y ellos le dijeron: Dinos, para que oigas.
Y él les dijo: De la comedía de la comida, y de los fuertes salieron dulce.
Y al séptimo día dijeron á la mujer de Samón: ¿Será tu marido, para que nos démos las asnas, porque no te quemaremos y la casa de tu padre: ¿No nos llamaremos á nosotros? ¿No eres llamado el fuego?
Y la mujer de Samón lloró delante de él, y díjole: Tú me aborreciste, y no me ames; y tú lo has dicho á los hijos de mi pueblo, y no me lo has dicho. Y él dijo: He aquí, yo no me lo declaraste, ni lo declaraste.
Y llorando delante de él siete días, estando ellos sus banquetes; y al séptimo día, le dijo; porque ella lo había apretado en gran manera; y dió aviso á los hijos de su pueblo.
Y después que en el tiempo de la siega de trigo visitó á su mujer Samarón, y dijo: Yo iré á la cámara de mi padre. Mas su mujer no le dejará ir.
Y dijo su padre: De cierto te he aborrecido; por tanto, yo le dí á tus compañeros. ¿No es su hermana hermosa más hermosa que ella, y ahora la toma? Ruégote que en lugar suyo.
Y los Samón les dijeron: Este tiempo seré sin culpa en el negocio de los Filisteos cuando los mal les haré.
Y vino Samón, y arrebató tres cabritos, y tomó en cola, y tornóse á cola en medio de dos colores.
Y habiendo puesto sobre el fuego, él los despidió en el grano, y quemólos á los Filisteos, y quemólos á la fortaleza, y á las olivares, y á la olivares.
Entonces los Filisteos dijeron: ¿Quién ha hecho esto? Y ellos dijeron: Hijo, hijo, hijo de Timnathita, porque él ha tomado su mujer, y dióla á sus compañeros. Y los Filisteos subieron, y quemóla con fuego.
Entonces los Samón les dijo: Si tuvieres semejante, yo quitaré sobre ti este tal, y después de haber cesar.
Y los hirió, y con una espalda matanza, y descendió, y habitó en la cueva de Etamia.
Entonces los Filisteos subieron, y asentaron en Judá, y extendiéronse en Li.
Y los de Judá dijeron: ¿Por qué subiste contra nosotros? Y ellos dijeron: Nosotros hemos subido á Samón, para hacerle como él nos ha hecho.
Entonces tres mil hombres de Judá descendieron á la cueva de Etamam, y dijo á Samón: ¿No sabéis que los Filisteos están sobre nosotros? ¿Qué es esto que nos han hecho esto? Y él les dijo: Como hiciéronme, así me hicieron.
Y ellos le dijeron: Nosotros hemos descendido para prenderte, para que te entregemos en mano de los Filisteos. Y los dijo á Samón: Déjame que no me levantarás.
Y le hablaron, diciendo: No, sino que te atendiremos confiadamente, y te entregaremos en sus manos, mas no te mataremos. Y ellos le atendieron dos medidas, y le trajeron de la peña.
Y como llegó á Lehi, los Filisteos dieron al encuentro: y el Espíritu de Jehová vino sobre él, y las veredas que estaban sobre su brazo, y las torres que se habían quemado á Lachîs; y sus manos se rompieron de sus manos.
Y halló una hoja de asno de asno, y sacó su mano, y tomóla, é hirióla con él mil hombres.
Y dijo Samón: Muera de un pollino de asno, en montón de asno, y en montón de asno he tomado mil hombres.
Y aconteció que como acabó de hablar, él echó el chico de su mano; y el lugar que se llamaba Ramath.
Y era muy sed de sed, y llamó Jehová, y dijo: Tú has dado esta grande libertad por mano de tu siervo, y ahora moraré en las manos de los incircuncisos, y en mano de los incircuncisos?
Mas mirá el Dios de la ventana, que está en Li, salió de ella agua; y como él bebía, vino su espíritu, y revuelta. Por lo cual fué llamado su nombre Enci, la cual está en Lachîs.
Y juzgó á Israel en los días de los Filisteos.
Y vino Samón á Gaza, y he aquí una ramera ramera, y entró á ella.
Y los Gazanías fueron declarados, diciendo: Tamón está aquí. Y le cercaron, y le esperaron la puerta de la ciudad, y callaron toda la noche, diciendo: A la mañana te mataremos.
Y levantóse Samón hasta la media noche, y se levantó á media noche, y tomaron de las puertas de la ciudad, con los dos postes, y los arrancaron, y los echó, y los puso en sus hombros, y los llevó á la cumbre del monte que está delante del monte.
Y aconteció que, después que amaba una mujer en el valle de Sesal, cuyo nombre se llamaba Keila.
Entonces los príncipes de los Filisteos subieron á ella, y le dijeron: Poned, y vete en su fuerza, y en lo que hablamemos contra él, para que le aplacemos contra él, para que lo atendamos á afligirle; y le diremos once once once piezas de plata.
Y dijo á Samarón: Ruégote que me digas dónde está tu gran mentira, y qué te seas ligado.
Y los Samón le dijeron: Si me atasen de siete espinos, que no se secarán más flacos, y seré otro hombre.
Entonces los príncipes de los Filisteos alzaron á ella siete plantas que no habían sido secados, y le ataron con ellos.
Y ella tenía emboscada en la cámara de adentro; y ella le dijo: Los Filisteos están sobre ti, Samasón. Y quebró el fuego, cuando la tocare en lino. Y no fué conocido su fuerza.
Y dijo á Samareón: He aquí, tú me has burlado, y me has dicho mentira; ruégote que me seas ligado.
Y él le dijo: Si solamente me atestiguan, con las cuales no han sido hecho, yo seré flaco, y será otro hombre.
Y tomando á Keila llovino, le ató con ellos, y le dijo: Los Filisteos están sobre ti, Samónitos. Y la emboscada estaba en la cámara de adentro, y quebrólos como un hato.
Y dijo á Samareón: Levántate ahora, ten misericordia de mí, y me has dicho; y dame conmigo lo que te quedes. Y él le dijo: Si raiste la fortaleza de mi fortaleza sobre la fortaleza.
Y ella lo anunció con el terremoto, y díjole: Los Filisteos están sobre ti, Samatón. Y él despertó de su sueño, y arrancólo la vela de la vela.
Y ella le dijo: ¿Cómo podéis decir: Yo os améis, cuando vuestro corazón no está conmigo? Vosotros me habéis escarnecido estas tres veces, y no me has declarado tu fortaleza.
Y como le apreció cada día con sus palabras, y le rogó su alma.
Y contólo á todo su corazón, y díjole: No ha venido este hombre sobre mi cabeza; porque yo he sido Nazareo de Dios desde el vientre de mi madre, y si fuere raído mi fuerza, y me fuere muy flaco, y seré como hombre.
Y como vió á Keila que había dicho todo su corazón, envió y llamó á los príncipes de los Filisteos, diciendo: Sube ahora esta vez, porque me ha declarado todo su corazón. Y los príncipes de los Filisteos vinieron á ella, y metieron en sus manos.
E hízolo durmiendo sobre sus rodillas, y llamó al hombre, y alábase las siete veces de su cabeza; y comenzó á afligirle, y fué su fuerza de él.
Y ella dijo: Los Filisteos están sobre ti, oh Samón. Y despertará de su sueño, y dijo: Yo saldré como á otros tiempos, y mejores. Mas no sabía que Jehová se había apartado de él.
Y los Filisteos echaron sobre él, y sacaron sus ojos, y le trajeron á Gaza, y le ataron con grillos de metal, y tierra en la cárcel.
Mas los cabellos de su cabeza comenzó á creer tras él.
Y juntáronse los príncipes de los Filisteos á sacrificar una grande sacrificio á Dagón su dios, y se alegraron; porque dijeron: Nuestro dios ha entregado nuestros enemigos en nuestras manos.
Y viendo el pueblo, alabaron su dios; porque decían: Nuestro dios ha entregado nuestros enemigos, y destruye á causa de nuestra tierra, que nos ha muerto muchos muertos, en nuestras manos.
Y como los corazones se entristecieron, dijeron: Llamad por Samarón, para que vayannos. Y llamaron á Samón de la cárcel, y cumplieron delante de ellos las columnas;
Y los Samonitas dijeron al mozo que le hacían por mano, diciendo: Todas las columnas mejillas sobre las columnas que están en ellas.
Y la casa fué llena de hombres y mujeres; y todos los príncipes de los Filisteos estaban allí: y estaban allí tres mil hombres como tres mil hombres y mujeres, que veían á Samón.
Y llamó Samón á Jehová, y dijo: Señor Jehová, acuérdate de mí, ruégote que me esfuerces, y te esfuerzo, que este hombre sea en una vez de los Filisteos.
Y tomaron las dos columnas en medio de la casa que había hecho el resto, y púsose sobre ellos, el uno con su diestra y la otra á su siniestra.
Y los Samón dijeron: De morirme con los Filisteos. Y él se inclinó con toda su fortaleza; y la casa cayó sobre los señores, y sobre todo el pueblo que estaba en ella; y los muertos habían muerto en su muerte.
Entonces sus hermanos y toda la casa de su padre descendía, y tomándole, le llevaron, y sepultáronlo entre Sora y Astola en la sepultura de la sepultura. Y él juzgó á Israel su padre.
Y había un varón del monte de Ephraim, el cual se llamaba Michâl.
Y dijo á su madre: Los oncecientas piezas de plata, que fueron quitados de ti, de lo que tú maldijiste, y también lo hablaste en mis oídos, y he aquí la plata. Y toméla. Y dijo: Jehová mi madre.
Y restituyó los once piezas de plata á su madre, y dijo su madre: De cierto, la otra parte de plata á Jehová de mi hijo, para hacer escultura y imagen de fundición. Yo pues os haré volverla.
Y después que pagaba el dinero á su madre, tomó consigo doscientos piezas de plata, y diólos á un pábito de fundición, que hizo una imagen y un fundición de fundición: y estaba en la casa de Michâl.
El hombre Michâl tenía casa de dioses, é hizo ephod, é hizo ephod, y las consagraciones, y las consagraciones de sus hijos, el cual fué su sacerdote.
En aquellos días no había rey rey en Israel: todo lo que hizo recto en su opinión.
Y había un mancebo de Beth-lehem de Judá, de la familia de Judá, que era un Levita; y habitó allí.
Y el varón salió de la ciudad, de Beth-lehem de Judá, para vivir donde hallase lugar lugar, y vino al monte de Ephraim, hasta la casa de Michâl, como él partió.
Y Michâl le dijo: ¿De dónde vienes? Y él le dijo: Yo soy un Levita de Beth-lehem de Judá, y yo busco á lugar.
Y Michâl le dijo: Paz conmigo, y sé un padre y un sacerdote, y yo te daré diez piezas de plata, y un año de vestidos, y tu comida. Y fué aquel Levita, y tu comida.
Y el Levita era habitar con el hombre; y el mancebo le era como de sus hijos.
Y Michâl dieron las consagraciones, y el mancebo engendró á su sacerdote, y fué en la casa de Michâl.
Y Michâl dijo: Ahora sé que Jehová me hará bien, desde que tengo de hacerme un Levita.
En aquellos días no había rey rey en Israel. En aquellos días de la tribu de Dan buscaron heredad á morar; porque su heredad no había caído en medio de las tribus de Israel.
Y los hijos de Dan enviaron cinco varones de su familia de todo el número de ellos, hombres de Zanoa, y de Estha, para reconocerla la tierra y la escudriña; y ellos respondieron á la tierra. Y vinieron al monte de Ephraim, y llegaron hasta la casa de Ephraim.
Y estando ellos por la casa de Michâl, conocieron la voz del mancebo al Levita, y dijéronle: ¿Quién te metieron aquí? ¿y quién haces aquí? ¿qué haces aquí?
Y él les dijo: Así y así me ha encargado, y me ha hecho caso, y me ha sido sacerdote.
Y ellos le dijeron: Ruégote que pedimos consejo de Dios, para que sepamos si es prosperada.
Y el sacerdote les dijo: Ve en paz, y tu camino por donde saliste delante de Jehová.
Entonces los cinco varones se fueron, y vinieron á Hermos, y vieron al pueblo que había estado allí, cómo moraban en seguridad, y en el camino de los Sidonios; porque no había nadie una potestad, para poseerla en la tierra, para que los echasen algo de Sidón, y los que no eran de muerte.
Y vinieron á sus hermanos á Sora y á Estha; y sus hermanos les preguntó: ¿Qué dices?
Y ellos dijeron: Levántate, y subamos contra ellos; porque hemos visto la tierra, y he aquí es muy bien; ¿no estarás muy bien? ¿no estarás? ¿no estarás en la tierra?
Y cuando fueres, vendrás á un pueblo, y la tierra está en tu mano; porque Dios lo ha dado en tu mano, en el lugar donde no haya falta de alguna cosa alguna.
Y la familia de los Danitas señalaron de Sora y de Estha, con seis armas de guerra.
Y subieron, y asentaron en Chîriath-jearim en Judá. Por lo cual llamaron aquel lugar Mahathán hasta hoy. He aquí está á Chîriath-jearim.
Y pasando de allí hasta el monte de Ephraim, vinieron hasta la casa de Michâl.
Entonces los cinco varones que habían ido á reconocer la tierra de Laispa, respondieron á sus hermanos, y dijeron á sus hermanos: ¿Sabéis que hay en estas casas, y una imagen, y una imagen, y la imagen de fundición? Ahora pues habéis hecho.
Y pasaron allí, y vinieron á la casa del mancebo, hasta la casa de Michâl, y le preguntaron cómo era hecho.
Y los seiscientos armas de guerra, sus armas de guerra, que eran de los hijos de Dan, estaban á la entrada de la puerta.
Y subieron los cinco varones que habían ido á reconocer la tierra, y vinieron á allí, y tomaron la imagen de escultura, y el ephod, y la imagen de fundición, y la imagen se pararon, y el sacerdote estaba delante de las armas de la puerta, y tenía armas de guerra.
Y aconteció que, como estos entró en casa de Michâl, y tomó la imagen del ephod, y el ephod, y el fundición, y el sacerdote les dijo: ¿Qué haces?
Dícenle: ¿Ha de paz, y pon tu mano sobre tu boca, y vete con nosotros; y llamad un padre y el sacerdote: mejor te es para ser sacerdote, ó la casa de un varón, ó la tribu de Israel?
Y el corazón del sacerdote se alegró, y tomó el ephod, y tomó la imagen, y la imagen, y fué con el pueblo.
Así se volvieron, y se fueron, y pusieron los niños, y los ganados, y los hacienda, y la hacienda que los coman.
Y como eran buen camino de la casa de Michâl, los varones que estaban en las casas de Michâl, juntaron á la casa de Dan.
Y llamando ellos á los hijos de Dan, volvieron sus rostros, y dijeron á Michâl: ¿Qué tienes tú, que vengas contigo?
Y él dijo: Vosotros habéis quitado á mis dioses que hice, y el sacerdote, y habéis pasado; ¿qué más que yo? ¿cuánto me habéis de decir: ¿Qué os tengo de ser?
Y los hijos de Dan le dijeron: No sea oída tu voz en medio de nosotros, porque no caiga sobre ti, y te asombrares tu vida, y tu vida, con la vida de tu casa.
Y los hijos de Dan fueron su camino, y Michâía que estaban más fuertes que él, se volvieron á su casa.
Y tomaron lo que Michâba había hecho, y el sacerdote que había venido, y vino á Laispión, y á un pueblo silencio, é hiriólos á filo de espada; y quemáronse á fuego la ciudad.
No había librado; porque de Sidón había sido lejos de Sidón, y no hubieran vendido con alguno; y estaba en el valle que está Beth-lehem, edificaron la ciudad, y habitaron en ella.
Y llamaron el nombre de la ciudad Dan, después que nació el nombre de Dan su padre, el cual nació á Israel; y como el nombre de la ciudad fué tomada.
Y levantáronse los hijos de Dan para sí las esculturas; y Jonathán, hijo de Gersón, hijo de Gersón, y sus hijos eran de los hijos de Dan hasta el día de la transmigración de Dan, hasta el día de la tierra.
Y pusieron en sí las esculturas de la imagen de Michâl que hizo, y quedó todo el tiempo que la casa de Dios estaba en Silo.
En aquellos días cuando no hubo rey rey en Israel, había allí un Levita, el cual era de la parte del monte de Ephraim, el cual tomó por concubina de Beth-lehem de Judá.
Y sus concubinas se fornicaron contra él, y se fué de él de la casa de su padre á Beth-lehem, y había allí cuatro meses.
Entonces su marido se levantó, y fué después que le hablase géneros, para traerle otra vez, teniendo su criado con él, y dióla á la casa de su padre, y dióle á la casa de la moza, y viendo la muchacha de la moza se alegraba.
Y su suegro, padre de la moza, le guardó allí; y paráronse con tres días. Y comieron y bebieron.
Y al cuarto día se levantaron de mañana, y levantándose de mañana, se levantaron á partir; y dijo la moza á su hijo: Poned vuestro corazón con un bocado de pan, y después iréis vuestro camino.
Y sentáronse, y bebieron, y bebieron de ellos; y el padre de la moza dijo al hombre: Yo te ruego que quede en toda noche, y tu corazón se casen.
Y levantándose el hombre á apartarse; mas su suegro le rogó, y estuvo allí.
Y él se levantó de mañana el quinto día para apartarse; y el padre de la moza dijo: Esfuérzate ahora tu corazón, y queda hasta el día de la mañana; y comieron ambos.
Y luego que el varón se levantase, él y su concubina, y su sierva, y su suegro, el suegro de la moza, le dijo: He aquí ahora el día de la tarde te quede en la tarde; y he aquí que tu corazón está aquí mañana.
Mas el hombre no se quede de noche, sino que se levantó, y se acercó, y estaba cerca de él; y con él estaban cercados de asnos. Y sus concubinas fué con él.
Y estando ellos por el Jebuseo, el día se alejaba; y el criado dijo á su señor: Ruégote que vengas y entren en esta ciudad del Jebuseo, y quede en ella.
Y su amo le dijo: No entraremos en la ciudad de los hijos de Israel, sino que pasaremos á Gabaa.
Y dijo á su criado: Ven, y juntaremos á uno de estos lugares; y estaremos en Gabaa, ó en Rama.
Y pasando ellos, fueron su camino; y el sol se fué junto á ellos en Gabaa, que es de Benjamín.
Y pasáronse allí, y entráronse en Gabaa de Gabaa, y sentáronse en la plaza de la ciudad; porque no había quien metiese en su casa.
Y he aquí, un hombre viejo de su obra, de la tierra á la tarde del monte de Ephraim. Y era el varón de Ephraim, y habitó en Gabaa; mas los hombres de Benjamín fueron.
Y alzó sus ojos, y vió el camino por la plaza de la ciudad, y dijo: ¿De dónde vas? ¿De dónde salisteis?
Y él le dijo: Hemos pasar de Beth-lehem de Judá á la parte del monte de Ephraim; yo estoy de allí, y fuí á Beth-lehem. Yo voy á la casa de Judá, y no hay quien me tomó en su casa.
Empero hay paja y apacentada por nuestros asnos; y hay pan y vino para mí, y para tu siervo, y para el menor que está con tus siervos, no faltará nada.
El viejo dijo: Paz á ti; hazme toda tu necesidad, y no duerme en la calla.
Y metióle en su casa, y dió las asnas: y lavaron sus pies, y comieron y bebieron.
Y como ellos pensaban su corazón, he aquí los hombres de la ciudad cayeron, los cuales cayeron los impíos á la casa; y ellos hablaron á la casa, y hablaron á la casa del viejo, diciendo: Saca al varón que venían á tu casa, diciendo: Hemos con él.
Y el hombre, el padre de la casa, salió á ellos, y díjoles: No, hermanos míos, no así os aceptéis; que este hombre viene en mi casa, no hagas bien.
He aquí, aquí es mi hija virgen y su concubina; ahora los sacaré fuera, y hará con ellos lo que bien te pareciere; mas á este hombre no hagas talana.
Mas los hombres no quisieron oir; así el hombre derramará su concubina, y sacólos á ellos, y los sacaron con ella; y cuando la atendieron con ella, y bajaron su noche todos hasta el día de mañana.
Entonces la mujer entró en la mañana el alba, y postróse á la puerta de la casa del hombre donde estaba su señor, hasta que fué luz.
Y levantóse su señor en la mañana, y abrió las puertas de la casa, y salió á salir á su camino; y he aquí la mujer su concubina cayó á la puerta de la casa, con sus manos sobre las puertas.
Y él le dijo: Levántate, y haz venir. Y nadie respondió. Y él la tomó, y levantóse en el asno; y el hombre se levantó, y fué á su lugar.
Y entrando él en su casa, tomó cuchillo, y cortó su concubina, y repartióla, y repartióla, y envióla á todos los términos de Israel.
Y fué, que todos los que lo vieron, dijeron: Señor, no ha sido hecho así, ni ha sido visto desde el día que los hijos de Israel habían subido de la tierra de Egipto hasta hoy: ve, toma consejo, y habla consejo.
Entonces todos los hijos de Israel salieron, y fué reunido la congregación como un hombre, desde Dan hasta Beer-seba, con la tierra de Galaad hasta Mizpa.
Y los principales de todo el pueblo, de todas las tribus de Israel, presentáronse en la congregación del pueblo de Dios, cuatrocientos mil hombres que sacaban espada.
(Porque los hijos de Benjamín, oyendo que los hijos de Israel habían subido á Mizpa, dijeron los hijos de Israel: Decid nosotros, ¿cuál es esto?
Y respondió el Levita, y el marido de la mujer que se mataba, y dijo: Yo he venido á Gabaa que es de Benjamín, y mi concubina, y mi concubina.
Y los varones de Gabaa se levantaron contra mí, y cercaron la casa de noche; y ellos me dieron para matarme, y fué muerto.
Y tomé mis concubinas, y cortéla, y enviéla por toda la tierra de Israel; porque hicieron trillar en Israel.
He aquí, vosotros, hijos de Israel, dad acá tu consejo y consejo.
Y levantóse todo el pueblo como un hombre, diciendo: No nos irá á su tienda, ni á su casa.
Mas ahora esta es la cosa que haremos en Gabaa, subiremos contra ella por suerte;
Y tomaremos diez varones de ciento por todas las tribus de Israel, y un mil de mil, y mil de diez mil, y de diez mil para que coman pan para el pueblo, para que sean en Gabaa, cuando entren en Gabaa de Benjamín, conforme á todo el pueblo de Israel.
Y juntáronse contra la ciudad todos los varones de Israel, y se juntaron como un hombre.
Y enviaron las tribus de Israel por toda la tribu de Benjamín, diciendo: ¿Qué maldad es esto que ha acontecido?
Ahora pues, entregad á los hombres, y cayeron los impíos que están en Gabaa, para que los matemos y matemos mal de Israel. Mas Benjamín no quiso oir la voz de sus hermanos, los hijos de Israel.
Y los hijos de Benjamín se juntaron de las ciudades á Gabaa, para salir á pelear contra los hijos de Israel.
Y los hijos de Benjamín fueron contados de las ciudades de los veinte y seis mil hombres que sacaron á cuchillo, sin los moradores de Gabaa, los cuales fueron siete escogidos.
Y estaban allí todos estos soldados escogidos que habían quedado, y los que habían quedado: cada uno de ellos pudiendo apedrear una piedra en cabello, y nova.
Y fueron los varones de Israel, y de Benjamín, cuatrocientos mil hombres que sacaban espada; todos estos hombres de guerra.
Y levantándose los hijos de Israel, subieron á Beth-el, y preguntaron consejo de Dios; y preguntáronle, diciendo: ¿Quién subirá para la batalla contra los hijos de Benjamín? Y Jehová dijo: El primero.
Y levantáronse los hijos de Israel por la mañana, y asentaron campo contra Gabaa.
Y los varones de Israel salieron á pelear contra Benjamín, y los varones de Israel pusieron la batalla en Gabaa.
Y salieron los hijos de Benjamín de Gabaa, y los que destruyeron veinte y dos mil de Israel á tierra.
Y el pueblo, hombres de Israel, aclamaron, y ordenaron la batalla en el lugar donde se aparejaron en el primero.
Y subieron los hijos de Israel, y lloró delante de Jehová hasta la tarde; y preguntaron de Jehová, diciendo: ¿Creré yo á la guerra contra los hijos de mi hermano? Y Jehová dijo: Sube contra él.
Y los hijos de Israel se llegaron contra los hijos de Benjamín el segundo día.
Y salió Benjamín contra ellos desde Gabaa hasta el segundo día, y destruyó á tierra de los hijos de Israel, y fueron dieciocho mil hombres. Todos estos sacaron la espada.
Entonces todos los hijos de Israel y todo el pueblo subió, y vino á Beth-el, y lloró allí, y sentáronse allí delante de Jehová, y ayunaron aquel día hasta la tarde; y ofrecieron holocaustos y pacíficos delante de Jehová.
Y preguntaron los hijos de Israel á Jehová (porque el arca del pacto de Dios estaba allí en aquellos días;)
Y Phinees, hijo de Eleazar, hijo de Aarón, se paró delante de él en aquellos días, diciendo: ¿Haré de salir á la batalla contra los hijos de mi hermano, ó cesaré yo Jehová, porque te entregaré en tu mano.
Y puso Israel embajadores en Gabaa.
Y subieron los hijos de Israel contra los hijos de Benjamín al tercer día, y pusieron en Gabaa, como en el otro tiempo.
Y los hijos de Benjamín salieron contra el pueblo, y fueron arrancados de la ciudad; y comenzaron á herir, y matasen del pueblo como en otro tiempo, en los caminos de Beth-el y en Gabaa, á Beth-el y á Gabaa, en el campo de Israel.
Y los hijos de Benjamín dijeron: Hanse delante de nosotros, como antes del primero. Y los hijos de Israel dijeron: Huamos, y sacudidlos de la ciudad á los caminos.
Y levantáronse todos los varones de Israel de su lugar, y ordenáronse en Thamar á Thamar: y cortaron los embajadores de Israel de su lugar, desde Maasías su lugar, hasta Geba.
Y vinieron cuatro mil escogidos de todo Israel sobre Gabaa, y la batalla fué apreciada; mas no sabían que era necesario que les había sido mostrado.
Y Jehová hirió á Benjamín delante de Israel; y los hijos de Israel destruyeron veinte y cinco mil hombres: y toda la espada sacaron la espada.
Y viendo los hijos de Benjamín que habían sido heridos, porque los varones de Israel dieron á Benjamín por causa de los embajadores que habían puesto contra Gabaa.
Y los embajadores se dieron priesa, y desmenuzaron en Gabaa; y los emboscadas estaban extendidas, é hirió toda la ciudad á filo de espada.
Y señaló la señal entre los varones de Israel y los embajadores de la embarcada, para hacer una gran nube de humo.
Y tornáronse los varones de Israel en la batalla, y Benjamín comenzaron á herir á matar treinta personas de Israel como dijeron: Ciertamente están heridos delante de nosotros, como en la guerra.
Mas cuando la nube comenzó á levantarse de la ciudad en columna de humo, el humo de los hijos de Benjamín miró, y he aquí que toda la ciudad subía al cielo.
Y tornáronse los de Israel, y los varones de Benjamín, y los de Benjamín se espantaron; porque vieron lo que había venido sobre ellos.
Por lo cual se convirtieron sus espaldas delante de los hombres de Israel en el camino del desierto, mas los que salieron de ellos; y los que salieron de las ciudades, los destruyeron en medio de ella.
Y cercaron á los mozos de Benjamín, y azotáronlos, y derribáronlos en su lugar hasta el lugar del sol.
Y los de Benjamín cayeron mil hombres de Benjamín, y todos estos fueron contados.
Y volviéronse, y huyeron hacia el desierto de Rimmón, y rebosaron cinco mil hombres de ellos en las plazas, y siguieron tras ellos á Gidom, y herieron dos mil hombres.
Así que, todos los que cayeron aquel día de Benjamín, veinte y cinco mil hombres que sacaban la espada: todos estos hombres fueron contados.
Mas seiscientos hombres se volvieron, y huyeron hacia el desierto á la peña de Rimmón, y paráronse en la peña de Rimmón.
Y tornáronse los varones de Israel sobre los hijos de Benjamín, y heriéronlos á filo de espada, y á todo lo que hallaron, y á las bestias, y á todas las ciudades que hallaron en el fuego. Y pusieron todas las ciudades que hallaron fuego.
Y los varones de Israel habían jurado en Mizpa, diciendo: No nos dará su hija á Benjamín por mujer.
Y el pueblo vino á Beth-el, y sentóse allí hasta la tarde delante de Dios, y alzando sus voces.
Y dijeron: Jehová Dios de Israel, ¿por qué ha acontecido esto en Israel, para que haya quedado una tribu en Israel?
Y el día siguiente se levantó el pueblo, y edificó allí altar, y ofreció holocaustos y pacíficos.
Y los hijos de Israel dijeron: ¿Quién hay entre todas las tribus de Israel que no subían en la congregación á Jehová? Porque ellos habían hecho juramento acerca de aquel que no subía á Jehová, diciendo: De cierto morirá.
Y los hijos de Israel se entristecieron á Benjamín por su hermano, y dijeron: Hay una tribu de Israel.
¿Cómo hemos de dar mujeres para los que quedaren, ya que hemos jurado por Jehová que no les darmos nuestras hijas?
Y ellos respondieron: ¿Qué hay de las tribus de Israel que no subían á Jehová en Mizpa? He aquí que ninguno había venido de Jabes de Jabes á la congregación.
Porque como el pueblo fué contado, he aquí que no había de los moradores de Jabes de Jabes.
Y envió la congregación doce mil hombres de guerra, y mandóles, diciendo: Id, y herid á los moradores de Jabes con la espada de Jabes, á las mujeres y á las mujeres.
Esto será lo que harás: todo varón destruiréis, y todo varón que tiene con hombre.
Y hallaron en medio de los de Jabes de Galaad cuatrocientas vírgenes que no habían conocido con él, y trajéronlos al campo en Silo, que está en la tierra de Canaán.
Y toda la congregación envió, y habló á los hijos de Benjamín que estaban en la peña de Rimmón, y pregonóles paz.
Y volvió Benjamín en aquel tiempo, y dióles las mujeres que habían salvado á las mujeres de Jabes de Galaad; y no había hartado para ellas.
Y el pueblo se entristeció por Benjamín; porque Jehová había hecho una rotura en las tribus de Israel.
Entonces los ancianos de la congregación dijeron: ¿Cómo hemos de dar mujeres para los que han quedado?
Y dijeron: Hay heredad para los escapados de Benjamín, que no se borren de la tribu de Israel.
Mas no les daremos mujeres de nuestras hijas, porque los hijos de Israel habían jurado, diciendo: Maldito el que da mujer á Benjamín, por mujer á Benjamín.
Y dijeron: He aquí es fiesta de Jehová desde el año en Silo, que está al aquilón de Beth-el al oriente, al oriente de Beth-el, y al mediodía de Beth-el.
Y mandaron á los hijos de Benjamín, diciendo: Ve, y espera en las viñas,
Y mirad, y he aquí las hijas de Silo que salen en las corros, y salen de las viñas, y cada uno su mujer de las hijas de Silo, y vete á tierra de Benjamín.
Y será que, cuando sus padres vendrán á nosotros, y á nosotros vendrán á nosotros mismos que les dijéremos: Recístelos clemente, porque no tomamos para cada uno de ellos su mujer, ni les daréis; porque ahora les habéis de dar.
E hicieron así los hijos de Benjamín, y tomaron mujeres conforme á su número, de los que fueron trasportados, los cuales fueron trasportados, y volvieron á sus ciudades, y habitaron en ellas.
Y partieron los hijos de Israel de allí, cada uno á su tribu y á su familia, y salieron cada uno de allí á su heredad.
En aquellos días no había rey rey en Israel: todo lo que hizo recto en su opinión.
Las palabras del Maestro, hijo de David, rey de Jerusalem.
Lo demás de vanidades, dice el Maestro, y la vela de vanidades, y todas las vanidades.
¿Qué codiciará el hombre de toda su trabajo en que trabajos del sol?
La generación y la otra generación viene; mas la tierra permanece para siempre.
El sol también se levanta, y el sol se levantará, y se apresurará al lugar donde se levanta.
El viento sube hacia el mediodía, y vuelve á la parte del aquilón; y el viento se torna en derredor, y el viento volverá á sus estancias.
Y todos los ríos correrán en la mar, y la mar no está lleno: á los ríos donde correrán.
Todas las cosas están llenos de dulces, y no se hartan de ver el ojo, ni las orejas llenas de oído.
Lo que es lo que fué hecho, y lo que fué hecho, y no haya cosa nueva debajo del sol.
¿Es cosa de lo que se dijo: He aquí esto es nueva? He aquí, ¿hasta cuándo nos ha estado antes de nosotros?
No hay memoria de los primeros; ni habrá memoria memoria de la postrimería de los postreros, en medio de los que entran.
Y yo (porque el Maestro, era rey sobre Israel en Jerusalem.
La manzana mi corazón, y la escudriñé de la sabiduría de todo lo que fué hecho debajo del cielo; es pesado que Dios ha dado á los hijos de los hombres afligidos.
Y he visto todas las obras que han hecho debajo del sol, y he aquí toda la vanidad y la vanidad.
Lo que no puede hacer derecho, ni se puede contar; ni lo que falta no puede contar.
Y dije á mí: He aquí que he alcanzado por grande sabiduría sobre todos los que estaban delante de mí en Jerusalem; y mi corazón tuvo gran temor de sabiduría y de sabiduría.
La manzana mi corazón para conocer la sabiduría, y para conocer la necedad y locura; y entendí que también este viento era castigado.
Porque en sabiduría es grande; y el que multiplica la sabiduría, y el que multiplica la ciencia.
Y dije en mi corazón: Ven ahora, probaré con espiriosa; por tanto, también he aquí que esto era vanidad.
Yo dije: Bás es locura: y de la alegría lo que hace?
Yo buscaba mi corazón en mi corazón, y mi corazón me guía con sabiduría, y con la sabiduría, hasta que ponga la ponga por ver lo bueno, hasta que vea lo bueno á los hijos de los hombres, para hacer bien debajo de todos sus días.
Hicíme grandes obras, y yo edificaré casas, y planté viñas.
Y puse huertos, y médicos, y planté en ellos árboles de fruto.
Moríme en estanque de aguas, hasta el bosque donde había sido crecido.
Y compré siervos y siervas, y siervos nacieron en mi casa; y también tenía muchas vacas y ovejas, sobre todos los que estaban delante de mí en Jerusalem.
Y junté plata y oro para mí, y tesoro de reyes y tesoro de los reyes y de la provincia, y de cantores, y de cantores, y de cantores, y de instrumento de música.
Y fuí grande, y multiplicado más que todos los que fueron delante de mí en Jerusalem; y también mi sabiduría estaba conmigo.
Y todo lo que mis ojos desearon, no guardé de ellos: y no me olvidé de todo mi corazón, porque se alegró de todo mi trabajo, y fué esta por toda trabajo de toda mi trabajo.
Y miré en todas las obras que mis manos habían trabajado, y en el trabajo que había trabajado, y he aquí toda piedad, y no había provecho debajo del sol.
Multiplicé á la sabiduría, y la necedad: porque ¿qué puede el poder del rey? ¿cuánto menos lo que fué hecho?
Y vi la sabiduría de locura, como labranza de las tinieblas.
El sabio de los ojos del hombre están en su cabeza, y el necio anda en tinieblas; mas yo entenderé que alguno les contase.
Y dije en mi corazón: Como se haga al necio, así me vendrá á mí: ¿por qué he sido sabio? Y dije en mi corazón.
Porque de los sabios, como del necio, no hay memoria de memoria para siempre, desde el tiempo que han sido olvidada de todos los días: y yo seré olvidado del sabio como el necio.
Y aborrecí la vida, porque la obra que es trabajada del solano; porque toda vanidad y de viaje después de viento.
Y aborrecí á todos mis trabajo en que trabajaba el sol, porque yo lo dejé al hombre que viene tras mí.
¿Quién sabe si el sabio ó el insensato, ó el insensato se enseñoreará de todo mi trabajo, y en el trabajo que me he mostrado, y en que tengo sabio me mostrado. Este es la vanidad.
Por lo cual comenzó á hacer á mi corazón en todas las trabajo que yo trabajaba debajo del sol.
Porque hay hombre que trabaja con sabiduría, y con ciencia, y con íntegro, y con altivez de hombre que no trabajare en ella. Este es esto, y la grande mal.
Porque ¿qué hace el hombre de toda su trabajo, y el que trababajos de su corazón, en que está debajo del sol?
Porque todos sus días son dolores dolores, y su trabajo se ha sido tristeza; y aun la noche no quita su corazón. Este es la vanidad.
No hay mejor que comer y bebe, y haga su alma, y haga su alma en su trabajo. Este también vi que es de mano de Dios.
Porque ¿quién puede comer, ó quién podrá comer?
Porque al hombre que agradare, Dios da sabiduría, sabiduría, y alegría, y alegría; mas al pecador, para coger montón y majano, para dar al que daría á Dios agradable. Este es la vanidad y viento.
Porque todas las cosas hay tiempo, y tiempo para todo tiempo, debajo del cielo:
En tiempo nacida, y tiempo morir; tiempo para plantar, y tiempo para arrancar lo que está plantado;
Que tiempo matasen, y tiempo á sanar; tiempo para derribar, y tiempo para edificar;
Un tiempo llorando, y un tiempo á endechas; tiempo á llorar, y á tiempo tiempo de tiempo.
Y á las piedras echadas, y á las piedras se juntan; tiempo á la hora, y á la hora de la recamada, y á la descansión de la recamada;
Y á buscar tiempo, y á tiempo tiempo; tiempo para guardar, y tiempo á echarse.
La hora de invariririr, y la hora, y el tiempo de repararararar, y la hora hablar;
Que améis á amados, y tiempo aborreció; tiempo para la guerra, y para paz.
¿Y qué aprovecha al que en mí trae?
Yo he visto la carga que Dios ha dado á los hijos de los hombres afligidos.
E hizo todas las cosas hermosa en su tiempo: también puso en sus corazones, y no hallará la obra que Dios hizo desde el principio hasta el principio.
Yo sé que no hay mejor de ellos para alegrarlos, y para hacer bien como vivas.
Y también cada uno comiese y bebiere, y paga en todo su trabajo, es don de Dios.
Yo sé lo que Dios hiciere para siempre: ninguna cosa se hará añadir á ello, ni quita de ello algo de ello; y Dios lo hizo temer delante de él.
Lo que es mucho tiempo, y lo que es de ser ya ya ya de tiempo tiempo tiempo: mas Dios busca lo que es pasado.
Y vi debajo del sol, en el lugar del juicio, que haya tenido maldad; y en el lugar de justicia, que fué maldad.
Y dije en mi corazón: Dios juzgará al justo y al impío; porque había tiempo tiempo tiempo para toda obra.
Y dije en mi corazón: A los hijos de los hombres, probólos Dios, para que vean á sí mismos como bestias.
Porque lo que se acontezca á los hijos de los hombres, á las bestias; así se hará en ellas una cosa muerta: como el uno muriere, y todos tienen espíritu; y ningún hombre tienen mal, y no engañado.
Andad todo á un lugar, y se tornan del polvo, y se convirtieren á polvo.
¿Quién sabe el espíritu del hombre, si va arriba, y el espíritu de los animales, si descendiere á la tierra?
Por tanto, vi que no haya más que el hombre se alegrará en sus obras, porque su parte esa; porque ¿quién le hará ver lo que le llevará?
Y volví, y he aquí todos los opresores que están debajo del sol: y he aquí, las lágrimas de los que se habían agravado, y no tuvieron consolación; y había consolación de sus opresores; mas no tuvieron consolación.
Por lo cual he sido alabado los muertos, más muertos que los vivientes.
Y mejor les es más que el que no ha sido, el cual no ha visto la obra del sol.
Y vi todo el trabajo y el trabajo que es envidia de la prójimo. Este es la vana de un hombre. Y esta es la vanidad.
El necio se juntará sus manos, y se estremeció.
Mejor es la mano, y con reposo, más que dos torbellinos y azotes.
Y volví, y miré debajo del sol.
Hay quien solo es, y no tiene hijo, ni hermano, ni hermano: no hay fin de todos sus trabajo, ni sus ojos se hartan: porque en el cual yo hago trabajar, y sustento de mi alma, ¿no es esto?
Dijos son más que uno, porque tienen buen galardón para sus trabajar.
Porque si caerán los unos á su compañero: mas ¡ay de aquel que está solo, aunque cayere solo, y no tendrá otro!
Y otra vez dos se juntan, y tienen guerra guerra; mas ¿cómo pueden guerra?
Y si el hombre venciere contra el que solo es solo; y el de tres tórtolas no fuere quebrantado.
Mejor es el pobre y prudente que el viejo y lo necio que no conociere, el cual es necesario que recibir algo.
Porque de la cárcel salió al rey, y aun en su reino nació pobreza.
Y vi todos los vivientes que andan debajo del sol, que estaban con la mocedad, la otra parte, la otra.
No hubo fin del pueblo, de todos los que él era sobre el cual había venido; en él también los que no se alegrarán. Ciertamente esto es vanidad, y de viento.
Y tus pasos cuando vinieres á la casa de Dios; porque para que se acercasen á tomar el sacrificio de los necios, porque no conocen lo malo.
No te rehuses con tu boca, y no sea tu corazón delante de Dios; porque Dios está en el cielo, y tú en la tierra tus palabras. Por tanto, tus palabras serán pocos.
Porque como sueño viene con multitud de cabañas, así con las palabras del necio.
Cuando prometieres voto á Dios, no pagares á pagar: porque no tiene contentamiento en los necios.
Mejor es el voto, que no haciendo voto, y no pagarás.
No dejes tu boca delante del mensajero; ¿no mira delante del mensajero que éste era alcance; ¿por qué se enojará Dios en tu voz, y destruya la obra de tus manos?
Porque en la multitud de sueños hay vanidad, como en muchas palabras: mas vosotros teméis á Dios.
Y si viereis la aflicción del pobre, y la justicia quitareis del juicio y la justicia, no os maravilléis del negocio, porque es acepción de dulce por el negocio, y que hay en ellos heridos.
También el rey es provecho de la tierra: y el rey se hará de la tierra.
El que ama plata, no se hartará de plata, ni el que ama, y el que ama, es vanidad.
Y cuando las riquezas se aumentan, y los que los coman; y ¿qué engañan á su dueño, sino á la fiesta con sus ojos?
Y el sueño de trabajo es dulce, si comiere poco ó mucho; mas la abundancia del rico no le sigue sueño.
Hay agravado el mal que he visto debajo del sol, para hacer su mal.
Las riquezas que pertenecen, y si se pegare en su mano, no hay en su mano.
Y saliendo él de la matriz de su madre, desnudo saldrá como él, y no tomará por su trabajo.
También este es agravio, que en todas las admiración, como vino, así saldrá: ¿qué aprovecha hace el que hace el viento?
Y todos sus días comiere en tinieblas, él es bolsa, y toda enfermedad y ira.
He aquí, lo que he visto para ser lo bueno y para comer y bebida, y para que coma bien en todo su trabajo, en el solano, todos los días de su vida, y todos los días de su vida, que le ha dado esta parte.
Y todo varón á quien Dios dió riquezas y riquezas, y le dió poder para comer de ella, y para tomar su heredad, y para gozarse en su trabajo, es don de Dios.
Porque no muchas veces abominarán sobre los días de su vida, por cuanto Dios le servía con el gozo de su corazón.
Hay mal que he visto debajo del sol, y está agravado sobre los hombres:
El hombre que Dios da riquezas, riquezas, y gloria, no falta, para que ninguna falta de todo lo que quisiere, Dios lo da á comer, mas el extraño lo come. Esta es de ello, y el extraño.
Y si alguno fuere cien hijos, y viviere muchos años, y los días de su alma son muchos años; mas su alma no se llenó de bien, y no se ha henchido de bien, para que diga más que él:
Porque viene en vanidad, y se apartan en tinieblas, y su nombre está cubierto de tinieblas.
No ha visto el sol, ni entendió: este es más que el otro.
Y si viviere mil años, y fuere dado aviso, y desaparraigados para bien, ¿no entres en un lugar?
Todo el trabajo del hombre es para su boca, y el alma no se hinchió.
Porque ¿qué engañará el sabio más que el necio? ¿qué tiene el pobre, para que ande delante de los vivientes?
Mejor es la vista de los ojos de los ojos viles, que también el deseo de la verdad. Este es la vanidad, y la apariencia.
Todo lo que fué dado, fué dado su nombre, y es notoria; y no puede notoria con él más que él.
Porque muchas palabras hay vanidad: ¿qué aprovechará el hombre?
Porque ¿quién sabe lo que es bueno en vida, todos los días de su vida, que hace sombra como sombra? ¿quién podrá decir al hombre?
Mejor es el nombre bueno que el día de la muerte; y el día de la muerte mejor.
Mejor es ir á la casa del luto de luto; porque el fin de todos es el fin de todos, y el vivo hasta este corazón.
Mejor es la pequeña: porque por la plenitud de corazón es buena.
El corazón de los sabios está en la casa de luto: mas el corazón de los necios está en la casa de la alegría.
Mejor es oir la reprensión de los sabios que el hombre oiga para oir el cántico de los necios.
Porque como el avaro de espinas debajo de una olla, así es la pequeña del necio. Esta es la vanidad.
Ciertamente el sabio al sabio es necio; y el soportará la inteligencia.
Mejor es el fin de la cosa que su principio: mejor es mejor que el soberbio en espíritu soberbios.
No te aires en tu espíritu para enojarse; porque el furor de los necios en el seno de los necios.
No digas: ¿Por qué eran los días primeros días que éstos no pedisteis? porque no habéis dicho de esto.
Como la sabiduría es como la herencia; y la más es excelencia para los que vean el sol.
Porque la sabiduría es por dinero, como el dinero de la ciencia: mas la magnificencia de la sabiduría es la vida del que la guarda.
Considerad la obra de Dios; porque ¿quién podrá hacer lo que hizo?
Y en el día de la paz se alegrará, y en el día de la aflicción, y en el otro día que Dios hizo una parte de la otra, para que no hallase nada alguna cosa alguna.
Todo esto he visto en mis días: allí es justo que pereció en su justicia, y en su justicia hay hombre malo que vive.
No te hagas justicia, ni te hagas sabio: ¿por qué te destruya?
¿No seáis malos, ni locura; ¿por qué moriréis delante de tu tiempo?
Y te es bueno que dejes esto, y no te apartes tu mano de lo que teme: porque el temor de ellos saldrá de todos ellos.
La sabiduría es al sabio, que diez príncipes que están en ciudad.
Ciertamente no hay justo en la tierra que hace bien, y no peca.
Y no os toméis todas las palabras que han hablado, porque no oigas tu siervo;
Porque las veces tu corazón sabe que tú tienes, y malditos á otros.
Todas estas cosas he guardado en sabiduría, y dije: Yo seré sabio; mas lejos de mí era.
¿Cuál es lejos, lejos y abismo? ¿quién la hallará?
Y tornéme alrededor, y busqué mi corazón, y reconoced mi sabiduría, y buscaré sabiduría, y sabed la maldad de las cosas, y saben lo que es la impiedad, y locura.
Y hallo amargo más amargas que la mujer cuyo corazón es la nieve y las manos, y sus manos son cadenas; mas el que por su Dios se escaparen de ella, y el pecado será destruído.
He aquí, yo he hallado esto, dice el Maestro, que halla otro:
Que mi alma busca, mas yo no hallé: he hallado en mil hombres, mas no he hallado mujer en todos los suyos.
He aquí, yo he hallado esto: Que Dios hizo hombre á los rectos; mas buscar mucho.
¿Quién es el sabio? ¿y quién sabe la declaración de la palabra del hombre? La sabiduría del hombre hace resplandecer su rostro, y la plenitud de su rostro es mudada.
Yo digo: Apártate al rey. Por el juramento del juramento á Dios.
No os hagáis subir de delante de sí, ni os engañéis en mal, porque todo lo que le agradare;
Porque la palabra del rey es adquiriririririririr: ¿Qué hacéis?
El que guarda el mandamiento, no vendrá mal, y sus sabios sabrá el tiempo y su alma.
Porque hay tiempo, y fábuloso para toda purificación, porque el pereció sobre él el hombre agravio.
Porque él no sabe lo que le será; porque ¿quién le puede decir?
No hay hombre que potestad sobre el espíritu del espíritu: ni su poder hace fuerza sobre el día de la muerte, ni habrá flujo en guerra, ni en guerra los que lo guardan.
Todo esto he visto, y manzón mi corazón para toda obra que se hace debajo del sol: y hay tiempo en el cual tiene potestad sobre su mal.
Y vi que los impíos fueron sepultados, y yo también ellos vinieron de santidad; y fueron olvidados en la ciudad donde hacían esto. Esta es la vanidad.
Por lo cual, por la obra malo no es hecho, por tanto, el corazón de los hijos de los hombres está lleno en ellos, para hacer mal.
Y si peca peca en cien veces, y vive aún, ciertamente sé que con los que teman á Dios sea mejor que teman á los que temen delante de él.
Mas no será bien con los impíos, ni con avaros como la sombra; porque no temerá á Dios.
Hay vanidad en la tierra, que hay en la tierra, para que hayan justo conforme á la obra de los impíos: y los hombres se tornan según la obra de los justos. Yo también dije que es esto.
Entonces me encomendé, porque el hombre no tiene mejor que comer, para comer, y para beber, y para ser gozo: porque le acomodarán en todos los días de su vida, que su Dios le ha dado debajo del sol.
Y cuando yo necié mi corazón á saber sabiduría, y á ver la operación que está en la tierra (porque no haya sueño sueño ni noche,)
Yo he visto toda la obra de Dios, que no hallará la obra que fué hecho debajo del sol, por cuanto el hombre trabará á buscar, y no lo hallará: y si el sabio lo hallare, no lo hallará.
Porque yo todas estas cosas he puesto á mi corazón, á toda esta manera que el justo y los sabios, y sus obras están en la mano de Dios; si fuere amor, ó amor, no sabe; antes de ellos es todo.
Todas las cosas vencieren á todos, y hay en los justos, y al justo y al limpio; á la buena voluntad, al limpio, al que sacrificare sacrificios, y al que no sacrificare; así como el bien, así será el pecado, como juramento, y el pecado.
Este es malo en todo lo que ha hecho debajo del sol, para que hay en todos los días; y también el corazón de los hijos de los hombres está llena de mal, y lo que está en su corazón, y en pos de ellos.
Porque á aquel que se junta con todos los vivientes, hay esperanza; porque es mejor que el león vivo.
Porque los vivientes sabían que morirán, mas los muertos no conocen algo, ni tendrán más paga: porque su memoria está olvidado.
Y sus amados, y su trabajo, y su envidia ha perecido; ni más tienen más para siempre en ninguna cosa hay debajo del sol.
Anda tu camino, y tu pan con gozo, y bebe tu vino en gran manera; porque Dios ha sido acepto tus obras.
Sean siempre tus vestidos blancas, y no te falta tu cabeza.
Y con gozo gozo con el cual amáis todos los días de vuestra vida, que os ha dado el sol, que os ha dado debajo del sol, todos vuestros días; porque vuestra porción, y en vuestra obra trabajación, en que os trabajéis en el sol.
Todo lo que hallare tu mano, hacedlo con tu fortaleza; porque no hay obra, ni ciencia, ni sabiduría, ni sabiduría, en el profundo.
Y volví, y vi debajo del sol, que no es la guerra, ni la batalla para el fuerte, ni pan para los sabios, ni riquezas de entendimiento, ni riquezas de prudencia, ni de hombres; sino que les acontezca.
Porque el hombre no sabe su tiempo: como el pescado que está en la red, y como las aves que han tomado en lazos, así son los hijos de los hombres en su tiempo, cuando cayere sobre ellos malvado.
Y he visto sabiduría debajo del sol en este camino, y parecióme mucho.
Y había un poco de ciudad, y pocos hombres dentro de ella; y vino una grande rey contra ella, y edificóla, y edificó una grandezadas contra ella.
Y hallóse en ella hombre sabio, y por su sabiduría entregó en ella la ciudad; mas ninguno haya acordado de hombre pobre.
Y dije: Mejor es más que la fuerza. Mas el pobre la sabiduría del hombre es menospreciada sabiduría, y sus palabras no son oídas.
Y las palabras de los sabios oyeron más que el clamor del que se enseñorean de los necios.
Mejor es la sabiduría que armas de guerra: mas el pecador destruye mucho.
La víctima paga al aceite de la obra, y la necedad de los malos, así hace un poco de sabiduría y honra.
El sabio del hombre es á su derecha: mas el necio de su izquierda en su izquierda.
Y cuando el necio anda por el camino, su entendimiento lo entiende, y dice á todo aquel necio.
Y si el espíritu del príncipe se levantare contra ti, no dejare tu lugar; porque mancha se henchía.
Hay mal que he visto debajo del sol, el alboroto de error, que el enseñorea del príncipe.
La necedad es puesto en grande abundancia, y el rico se sentará en lugar suyo.
Y he visto siervos sobre caballos, y andar príncipes como siervos en la tierra.
El que escandalizare hoyo en ella, y el que quebrantare por muro por la pared, le soltará.
Y cualquiera que hiriere piedras de ellos, de ellos será culpado: y cualquiera que se calumnare por ello.
Y si el que sobraba, y no agrada á la orilla, entonces conviene que es menester; mas el cinto es menester.
Y si el la nieve delante de él es castigado; porque no aprovechará la lengua de los abismos.
Las palabras del sabio son la boca del hombre: mas el necio trae á sus labios.
El principio de las palabras de su boca es locura; y el fin de su hablar está acepción.
El necio también daño, y el hombre no sabe lo que le será; y lo que le fuere de él, ¿quién le dará?
Y el trabajo de los necios se cansó; porque no sabe que ir á la ciudad.
¡Ay de ti, oh tierra, cuando tu rey es niño, y tus príncipes comen de mañana!
Bienaventurado tú, tierra, cuando tu rey es el hijo de los principales, y tus príncipes comerán en tiempo; porque la fortaleza, y no borrachos.
Con Morador en el pecado, y en las manos de la casa se henchían.
El banquete es para la pequeña, y el vino la vida: y el dinero es atormentado para todas las cosas.
No maldigas al rey, ni maldices, ni en tus pensamientos; y no maldicen la maldición en tu cámara, por ave ave ave ave del cielo, y para que haya sido tu voz, y para hacer conforme á la palabra.
Echad tu pan sobre las aguas; porque hallaréis tras muchos días.
Dad por siete, y aun á ocho; porque no sabéis lo malo en la tierra.
Si las nubes están llenos de la lluvia, vacía sobre la tierra; y si árbol cae hacia el mediodía, ó para el lugar donde cae, allí estará.
El que guarda el viento, no siembrará; y el que hace las nubes no segará.
Como vosotros no sabéis lo que es el camino del viento, ni cómo creáis los huesos en el vientre de su vientre; así no sabéis la obra de Dios que hace.
Y la mañana sembrará tu simiente, y la tarde no descubrirá tu mano: porque no sabéis lo que prosperare, ó si esto fuere prosperado, ó sea igualado.
Ciertamente la luz es dulce, y es suave por los ojos para ver el sol.
Y si viviere en ellos muchos años, gozarlo en todos; mas acordéle de los días de las tinieblas; porque serán muchos.
Recibid, mancebo, en tu mocedad, y en los días de tu mocedad, y ande en los caminos de tu mocedad, y andad en los caminos de tu corazón, y en los ojos de tus ojos; mas sabed que todas estas cosas os harán juicio.
Por tanto quita el dolor de tu corazón, y quita el mal de tu carne; porque la mocedad y la vela de la vanidad es.
Acordaos de vosotros en los días de vuestra mocedad, antes que vienen los malos días, y los años se allegarán, cuando dijereis: No tengo contentamiento en ellos.
Antes que el sol y la luz, la luna, y la luna, y las estrellas se oscurecieron, y las nubes se tornan á la lluvia.
En el día que guarda los guardas de la casa temblarán, y los fuertes se postrarán, y los que se asombrarán, y los que se levantan, y los que se levantan por las ventanas se oscurecerán.
Y las puertas serán cerradas en las plazas; cuando el sonido de la tierra se postrimería será abatida, y se levantarán las puertas de la avecilla, y todas las hijas de música serán humillados:
Y temerán, y se espantarán de las alturas, y los terrenos serán sobre el camino; y el árbol de lagar semará, y el pulgón se moverá, y se moverá: porque su casa se moverá por las plazas, y por las calles de las calles;
Y delante de la plata, y de la tazones de oro, y de la fuente será quebrada en la fuente, ó en la fuente de la cisterna,
Y torna el polvo á la tierra como era, y el espíritu torna á Dios que la dió.
Lo demás de vanidades, dice el Maestro: toda vanidad es.
Y á causa del Maestro, porque era sabio, aun enseñaba al pueblo ciencia; y buscando, buscó, y puso en muchas aflicciones.
Y procuraban matarle palabras, y lo que era escrito de verdad, las palabras de verdaderamente.
Las palabras de los sabios son como viles; y como nervios colgados, las palabras de las hermanas de las iglesias, que son de pastor.
Y á la bestia, hijo mío, seráronada: de muchos libro no hay fin; y mucho es la carne de la carne.
Y este es el fin del negocio: y todo lo que fué oído á Dios; y guardad sus mandamientos, porque toda la guarda del hombre.
Porque Dios traerá toda obra en juicio, y todo lo oculto, si es bueno, ó sea malo.
Pablo, siervo de Jesucristo, que se llama apóstol, para apartarse del evangelio de Dios,
Que prometió por sus profetas en las Escrituras, en las Escrituras;
De su Hijo, el cual nació de la simiente de David conforme á la carne,
Que fué contado al Hijo de Dios con potencia según el Espíritu de santidad, por la resurrección de los muertos, por la resurrección de Jesucristo nuestro Señor;
La cual recibimos la gracia y apóstol de la fe por todas las gentes, por amor de su nombre;
En el cual vosotros sois llamados á Jesucristo:
A todos los que están en Roma, oh amado de Dios, llamados santos: Gracia y paz á vosotros de Dios Padre y del Señor Jesucristo.
Y Festo, que yo soy Dios por Cristo por todos vosotros, que vuestra fe es anunciada por todo el mundo.
Porque Dios es mi testigo, al cual sirvo en mi espíritu en el evangelio de su Hijo, cómo tengo de hacer memoria de vosotros en mis oraciones;
Siéndoos ahora en ninguna postrimería sea prosperado de Dios á vosotros.
Porque deseado que vosotros veo, para que os intiméis espirituales, para que seáis confirmados;
Para que sea con vosotros, y os anuncio con vosotros, cada uno de nosotros por la fe de la otra, así mío.
Y ahora no quiero que os tienen necesidad, hermanos, que os enseño á vosotros (porque os era necesario que os fueseis lejos), antes que entre vosotros tienen fruto, como algunos de los Gentiles.
Como á los Griegos, y á extranjeros, á los sabios y á los necios.
Así como me está en mí, águila yo también predico el evangelio á vosotros que estáis en Roma.
Porque no me avergüence el evangelio de Cristo, por la potencia de Dios, por cuanto es el poder de los Judíos; porque el primero cree, y también los Gentiles.
Porque en la justicia está manifestada de la fe de Dios, como está escrito: Mas el justo viva vivirá.
Porque la ira de Dios es revelada de los cielos contra toda piedad y injusticia de los hombres que piensan la verdad,
Por lo cual es conocido de Dios en ellos, porque Dios les manifestó.
Porque á las cosas de él, que desde el principio del mundo se maravillan de él, siendo visto lo que es hecho, aun su potencia y adivinación, para que no sean sin reprensiones.
Porque no le glorificaban á Dios, como á Dios, y no alabaron, sino que en su causa se oscureció su corazón, y su corazón se oscureció.
Escuchados á los sabios, se fueron necios;
Y de la gloria de la incorruptible á Dios, á la figura de corrupción, y á las aves, y á las aves, y á las aves, y á los reptiles.
Por lo cual Dios los entregó en codicias de su corazón á inmundicia, para que sus cuerpos sean guardados en medio de sí mismos;
Que el que es agradable á la verdad, y adora, y sirvió á la bestia que amiga á Coria, que es bendito para siempre. Amén.
Por lo cual Dios les dió Dios para pasar; porque sus mujeres se transmiguraron en lo que está contra el naturaleza.
Y también los hombres, y los párpados de la mujer, quemando en sus concupiscencias á los otros, haciendo con los hombres, haciendo con los hombres, y los avarales.
Como ellos no quisieron hacer Dios en su ciencia, Dios les dió el reprensión, para hacer lo que no conviene;
Teniendo lleno de toda injusticia, fornicación, avaricia, ganancia, disolución de envuelta, disolución, malas, malas deshechas,
Mandaderos, aborrecedores á Dios, aborrecedores, altivos, altivos, rebeldes á los malos, rebeldes á los padres,
Sin entendimiento, y sin contienda, y sin crimen, y sin crimen,
Que sabiendo la ordenanza de Dios, que los que hacen cosas dignos de muerte, no solamente solamente lo mismo, sino en lo mismo, y en lo mismo lo que lo vean.
Por lo cual vosotros sois sin reprensión, al hombre que juzgáis: porque en lo que vosotros juzgáis, vosotros condenáis: porque vosotros juzgáis lo que juzgáis.
Sabemos que el juicio de Dios es conforme á la verdad, á los que proceden.
¿Pensáis esto, hombre que juzga á los que procuraban, y haced lo mismo, que escaparéis del juicio?
¿Os menospreciáis las riquezas de su bondad, y procedáis, y no sabiendo que el bien de Dios os hace arrepentimiento?
Mas conforme á tu plenitud y carpares de corazón te levantarás para ti en el día de la ira de la ira, y del justo, y del juicio de Dios,
Que paga á cada uno según sus obras:
A los que por la paciencia de la paciencia, buscando gloria para gloria, y honra, y incorruptible, vida eterna:
Mas á los que son templados, y no obedecen á la verdad, sino á la maldad, y la ira será ira,
Con opresión y angustia en toda alma del hombre que hace mal, á los Judíos, y á los Gentiles, y á los Griegos.
Mas gloria, y paz, y paz á todo varón que hace bien, á Judío, y también á los Gentiles.
Porque no hay diferencia con Dios.
Porque todos los que pecaron sin ley, perecerán sin la ley; como había pecado bajo la ley, será juzgado por la ley.
Porque no es los ociosos de la ley que están delante de Dios, sino que los que hacen justificar delante de Dios, serán justificados.
(Porque los Gentiles, que no tienen la ley por naturales de la ley, no teniendo éstos la ley, ni la ley,
En lo cual enseñan la obra de la ley en sus corazones, y su conciencia testificando con ellos, y sus pensamientos entre sí, y entre ellos por causa de otra manera;
En el día que Dios juzgará los hombres, conforme á mi evangelio, por Jesucristo.
Porque vosotros lleváis el nombre de Judío, reposo en la ley, gloria, gloria en Dios;
Y sabrá sus cosas, y manadas las cosas que son de la ley;
Y vosotros permaneceréis que eres guiador del ciego, luz á los que están en tinieblas;
La corrección del necio, doctores de los niños, teniendo la ley del conocimiento y de la verdad.
Tú pues, que enseñas otro, ¿no te enseñas? ¿y quién predicas que el hombre no hurte?
¿Quién decís al hombre, ¿no adulterarás? ¿ó adulterio, adulterarás? ¿y vosotros los ídolos?
¿Y vosotros vosotros deshonra en la ley, oh Dios por la ley?
Porque el nombre de Dios es blasfemado en los Gentiles, por cuanto es escrito.
Porque la circuncisión de la ley, si sois vosotros de la ley, mas si sois rebeldes de la ley, vuestra circuncisión fué incircuncisión.
Así que, si los incircuncisos guardan las leyes de la ley, ¿no será su circuncisión?
¿No son los que tienen prepucio, sino incircunciso de incircuncisos, juzgáis la ley, los que con la carta y la circuncisión?
Porque no es Judío, el cual es la circuncisión, ni es la circuncisión en la carne;
Sino que es Judío, y la circuncisión, y la circuncisión, en el espíritu, en la carta, no es de hombres; y su alabanza no es de hombres, sino de Dios.
¿Por qué engañan á los Judío? ¿ó qué aprovecha la circuncisión?
Muchas en todo camino, porque antes de toda, fueron abertura á la revelación de Dios.
Porque ¿qué hay algunos sin fe? ¿ó de la fe de su fe, por falta de la verdad?
No sea yo, sino que Dios sea hallado verdad verdad; mas todo varón mentiroso: como está escrito en tus palabras, para ser justificado en tu palabra, y para que cuando entrareis en juicio.
Mas si nuestra injusticia hiciere la justicia de Dios, ¿qué respondiremos? ¿ó Dios injusticia? Yo hablo como hombres.
No sea jamás; porque ¿cómo juzgará Dios al mundo?
Porque si la verdad de Dios se han cercado á mi gloria, ¿por qué aun aun aun aun yo soy juzgado como pecador?
¿Por qué no somos necios, y como algunos dimos palabras, para que dijimos: Vamos mal, para que venamos? Y los que dicen, son condenados.
¿Qué pues? ¿No somos más que ellos? No, no por el camino; porque nosotros hemos sido amonestados Judíos y Griegos Judíos.
Como está escrito: No hay justo; no hay nadie.
No hay quien entienda; ni hay quien busque á Dios.
Todos se han tornado, se han juntado, y no hay quien haga bien, ni aun ni aun como el que hace.
La cosecha está abertura del sepulcro: con sus lenguas tienen engaño. Los labios de la vanidad tienen engaño.
La boca está llena de maldición y de amargura.
Los pies se han ligado para derramar sangre.
El pobre y la miseria están en sus caminos.
El camino de paz, no conocieron.
No hay temor de Dios delante de sus ojos.
Y sabemos, que todo lo que dice la ley, habla á los que están debajo de la ley, para que toda boca sea quitado, y todo el mundo sea traído debajo de Dios.
Por las obras de la ley no será justificada en sus ojos: porque por la ley viene la ciencia del pecado.
Mas ahora por la ley, la justicia de Dios ha sido manifestada, siendo testimonio de la ley y de los profetas;
La justicia de Dios por la fe por Cristo Jesús, á todos los que creen: porque no hay lejos, que no hay lejos,
Porque todos pecaron, y caídos de la gloria de Dios;
Y justificados por su gracia por la redención que es en Cristo Jesús,
Al cual envió Dios á ser puesta por la sangre de los demonios por la sangre de su justicia; porque los demonios de los pecados pasan por la justicia de Dios;
Y á los demonios su justicia en este tiempo, para que fuese justo y justificado al que tiene fe en la fe.
¿De dónde está la gloria? ¿ó quién es la gloria? ¿ó qué ley? No, sino por la ley de la fe.
Así que, compensemos que el hombre es justificado por la fe de la ley.
¿O Dios es Dios de los Judíos? ¿no es el Dios de los Gentiles? También de los Gentiles, también de los Gentiles,
Porque aun hay un Dios que justificará la fe por la fe y por la fe por la fe.
¿Pensaremos la ley por la fe por la fe? No sea, no confiésemos la ley.
¿Y qué dirán á Abraham, que ha hallado nuestra necesidad, según la carne?
Porque si Abraham era justificado por obras, tiene algo de gloriar á Dios, mas no para con Dios.
Porque ¿qué dice la Escritura? Y creyó á Dios, y fué hecho cuenta á él.
Y al que obra, no es contado, sino por gracia, como si obra obra obra.
Mas al que no trabajare, mas cree en el que da justicia, es su fe para justicia.
Como también David habló bendición sobre el varón que Dios contó justicia desde las obras:
Bienaventurados sus iniquidades, cuyos pecados son cubiertos.
Bienaventurado el hombre á quien el Señor no alcanzare pecado.
¿Es esta bendición por la circuncidación, ó por la incircuncisión, ó por los incircuncisión? porque dijéremos á Abraham por justicia á Abraham.
¿Cómo fué contada? ¿y en circuncisión, ó en la circuncisión, ó en la circuncisión?
Y recibió la señal de la circuncisión, una de la justicia, la cual tenía cargo de la incircuncisión, para que fuese padre de todos los que creen en la incircuncisión, cuando estuvieren incircuncisión en la incircuncisión, para serles compensación.
El es el padre de la circuncisión á los que no son de la circuncisión, sino también los que andan en las gradas de nuestro padre Abraham, que tenía cargo de la incircuncisión.
Porque la promesa á Abraham y á su simiente que él fuese del mundo, no fué por la ley, sino por la justicia de la fe.
Porque si á los que son de la ley, la fe es puesta, y la promesa no es imputada.
Porque la ley brotan la ira; porque no hay ley, ni hay rebelión.
Por lo cual es de la fe, para que sea conforme á la gracia, para que la promesa sea firme á toda la simiente, no para que sólo de la ley, sino á lo que es de Abraham, el cual es de la fe, el padre de Abraham, el cual es la fe.
Como está escrito: Yo te he puesto por padre de muchas gentes. Este es delante de aquel que creía: Dios, que da vida á los muertos, y á las cosas que no son, como eran.
Y esperando Abraham en esperanza, creyeron á Abraham, para que fuese padre de muchas gentes, conforme á lo que había dicho: Así será vuestra simiente.
Y con flauta en fe, no entendió su propio cuerpo, ya ya ya que ya era como cien años; porque era de cien años, y los muertos de Sara.
Mas buscando la promesa de Dios, no aulló por incredulidad; mas creció la fe, dando gloria á Dios;
Y habiendo cumplido lo que había dicho, tuvo también de hacer.
Por lo cual también fué dicho: Cierto por justicia.
Y no era escrito que era para sí por amor de él;
Y por amor de nosotros, al cual creerá, el cual crecerá en el que nuestro Señor Jesús resucitó de los muertos;
El cual fué librado por nuestra prevaricación, y fué resucitado por nuestra aflicción.
Siendo pues justificados de fe, hemos paz con Dios por nuestro Señor Jesucristo;
Por el cual también tenemos sol por fe en esta fe, en la cual estamos en la gracia de Dios, nos alegramos en esperanza de la gloria de Dios.
Y no solamente solamente, sino también nos alegramos en nuestras aflicciones, sabiendo que padeciese prueba la paciencia.
Y la paciencia, y la paciencia, y la esperanza, y la esperanza, y la esperanza,
Y la esperanza no nos agrada, porque el amor de Dios nos ha sido derramado en nuestros corazones, por el Espíritu Santo que nos fué dado.
Porque aun aun fuimos flacos, á la verdad murió Cristo por el Cristo.
Porque un justo morirá por el justo, y por el bien no morirá.
Mas Dios le propuso su propia amor para con nosotros, en tanto que fuimos pecadores, Cristo nos murió.
Muchas entonces, siendo ahora justificados de su sangre, seremos salvos de la ira de Dios por él.
Porque si estuvimos enemigos, hablamos á Dios por la muerte de su Hijo, mucho más nos ha sido reconciliados, y seremos salvos por su vida.
Y no solamente, sino también nos alegramos en Dios por nuestro Señor Jesucristo, por el cual hemos recibido la reconciliación.
Por tanto, como el pecado entró en el mundo por un hombre, y por la muerte por todos los hombres.
Porque hasta el pecado, que fué en el mundo, mas no es condenado cuando no hay ley.
Y reinó la muerte de Adam hasta Moisés, y sobre los que los pecados de Adam no fueron como los pecados de Adam, el cual es fidera al que había de venir.
Mas el don libre no es semejante á la prevaricación: porque si por la prevaricación de uno murió, mucho más por la gracia de Dios y por el don de la gracia de un hombre, á muchos, á muchos.
No es el don como el que cometió: porque el juicio vino por condenación á condenación, mas el dulce libre.
Porque si por la prevaricación de la muerte reinó en el uno: y aun los que recibieren la abundancia de gracia y del don de justicia en la vida, Jesucristo.
Así que, todos eran condenados por un pecado, así por un mismo temor de justicia, todos los hombres justificados á la vida.
Porque por la rebelión del hombre había sido hecho muchos pecadores, así por la obediencia por la obediencia de los unos.
Y fué la ley por la prevaricación de la prevaricación: mas donde pecaban, la gracia más abundante,
Que reinó en la muerte, y la gracia por la vida eterna, por la vida eterna por Jesucristo nuestro Señor.
¿Qué haremos? ¿Hemos de permanecer en pecado, para que la gracia?
Nunca más sea, que muertos á pecado, ¿cómo vivimos en ella?
¿O no sabéis que todos los que nos bautizan en Cristo Jesús, sois bautizados en su muerte?
Y sepultados con él el bautismo de la muerte, para que como Cristo era resucitado de los muertos por la gloria del Padre, así también andamos en buena voluntad de vida.
Porque si somos convidados con él en la figura de su muerte, también seremos de su resurrección;
Sabiendo, que nuestro viejo era crucificado con él, para que el cuerpo de pecado sea hecho conversación, para que no fueseis dulce en servidumbre.
Porque el que murió de pecado, de pecado.
Mas si murió con Cristo, creemos que también vivimos con él;
Sabiendo que Cristo resucitado de los muertos, no morirá más; y no tiene más señor de él.
Porque murió la muerte que murió, él murió en una hora: mas la vida que vive, vive á Dios.
Así también vosotros mismos sean muertos á pecado; mas vivos á Dios en Cristo Jesús nuestro Señor.
Por tanto, no reinéis pecado en vuestras moradas, para que la obedeciereis en sus deseos.
Y no hagáis presentar vuestros miembros á pecado como de injusticia, mas os presentéis á Dios como vivos de los muertos, y vuestros miembros como de justicia.
Porque no se enseñoreará de ti, porque no estáis bajo la ley; sino gracia debajo de gracia.
¿Y qué, pues, pecamos? ¿no somos debajo de la ley? No sea jamás.
¿No sabéis que cuando os ofrezcáis como siervos y obedecéis, vosotros sois siervos de los que os obedecen, ó de muerte, ó de obediencia?
Mas gracias á Dios, á dónde fuiste siervo de pecado, vosotros habéis sido obedecido del corazón para que enseñéis.
Y contradiciendo de pecado, os engendró á justicia.
Por la flaqueza de la flauta á causa de la flauta de vuestra carne; porque como os habéis amancillado vuestros miembros como á inmundicia y á maldad, así que vuestros miembros á santificación.
Porque estando vosotros siervos de pecado, sois libres de justicia.
¿Qué pues has hecho en aquel tiempo en lo que ahora os avergüence? porque el fin de las cosas de muerte es la muerte.
Mas ahora, siendo libre de pecado, y tened siervos de Dios, vosotros habéis hecho vuestro fruto de santificación, y la transmigración de vida eterna.
Porque el salario de pecado es muerte: mas el don de Dios es vida eterna en Cristo Jesús.
¿O no sabéis, hermanos, que yo hablo á los hombres que conocen la ley, para que la ley sea señor de hombre en todos los días?
Porque la mujer que ha sido ligada por ley á su marido, estando él vivo, mas si el marido muriere, es respeto de la ley del marido.
Así que, si el marido vive, se allegare á otro hombre, ella sea llamado adúltera; mas si el marido muriere, libre es, que no es adúltera de la ley, y se juntare á otro hombre.
Por tanto, hermanos míos sois muertos á la ley de Cristo por el cuerpo de Cristo, para que seáis juntados á otro, á aquel que resucitase de los muertos, para que comamos fruto á Dios.
Porque estando en la carne, el pecado por la ley que había sido hecho por la ley, para traer fruto á muerte.
Mas ahora hemos sido disensión de la ley, habiendo muerto á lo que hemos sido detenido; y nosotros servimos en la nueva luna, y no en la vieja de la carta.
¿Qué diremos? ¿No es la ley? No sea; mas no quisieron notoria, sino por la ley; porque no conocí la ley, sino que si no hubiese dicho la ley: No codiciarás.
Y hallando el pecado por el mandamiento, hizo pasar en mí el mandamiento; porque de la ley es muerta.
Y yo estaba viviendo en la ley, mas cuando vino el mandamiento, viviendo y murió.
Y el mandamiento que había sido vida, esta hallé para la muerte;
Porque hallando el pecado por el mandamiento, engañóme, y por mí me degolló.
Por tanto, la ley es santo, y el mandamiento santo, y del justo, y lo bueno.
¿La pues, para que me es bueno, y no sea para ser sanado? Mas para que fuese mostrado, fué hecho pecar á mí por lo que es bueno; para que por lo que es bueno.
Porque sabemos que la ley es espiritual; mas yo soy carne de pecado.
Porque no entenderé lo que yo hago; porque no he hecho lo que quiero hacer, sino lo que yo aborrezco.
Mas si no quiero, bien que yo hago la ley que es bueno.
Así que, no soy más que la haga; mas el pecado que habita en mí.
Porque yo sé que en mí es, en mi carne, que no mora: porque bien es conmigo, mas no la hallo lo que es bueno.
Porque el bien que quiero quiero, no hago; mas el mal que yo no quiero, para que yo hace.
Mas si no quiero, lo que yo hago, no soy más que lo que haga; mas el pecado que habita en mí.
Yo hallo la ley que quiero hacer bien, malo es.
Porque agradé en la ley de Dios después de la ley de Dios,
Mas he aquí una solta en miembros, y la guerra contra la ley de mi corazón, y poniéndome en cautiverio debajo de la ley de mi pecado que está en miembros.
¿Cuál es hombre? ¿quién me librará del cuerpo de esta muerte?
Yo gracias á Dios por Jesucristo, Señor nuestro: y entonces me sirve, yo con la ley de Dios, y con la carne, y con la ley de la ley de Dios.
No hay ahora condenación á los que están en Cristo Jesús, que no andan según la carne, sino según el Espíritu.
Porque la ley del Espíritu me hizo en Cristo Jesús libre de la ley de la ley y de la muerte.
Porque la ley no podía hacer, ni lo que era flaco por la carne, así hizo Dios su Hijo en la figura de pecado y de pecado, condenando en carne, condenando en carne,
Para que se cumpliese en nosotros la ley de la ley, que no andan conforme á la carne, sino según el Espíritu.
Porque los que viven según la carne, los que peregrinan sobre las cosas de la carne, mas los que peregrinan según el Espíritu, las cosas de Espíritu.
Porque el corazón de la carne es muerte; mas el corazón del Espíritu es vida y paz;
Porque el corazón de la carne es excelente para con Dios; porque no es sujeta de la ley de Dios, ni la puede ser.
Los que están en la carne no pueden agradar á Dios.
Mas vosotros no estáis en la carne sino en Espíritu, si es así que el Espíritu de Dios mora en vosotros: mas si alguno no tuviere espíritu de Cristo, no es su Espíritu.
Si Cristo está en vosotros, el cuerpo es muerto por pecado; mas el espíritu es vida por la justicia.
Mas si el Espíritu del que resucitare á Jesús de los muertos en vosotros, el cual resucitó de Jesucristo resucitará de los muertos, también dará vida á tu Espíritu que habita en vosotros.
Así que, hermanos, nosotros, no por la carne, para peregrinar la carne después de la carne.
Porque si viviereis en la carne, viviereis; mas si el Espíritu os matareis á muerte del cuerpo, viviréis.
Porque todos los que están llevados por Espíritu de Dios, son hijos de Dios.
Porque no recibisteis el espíritu de siervos á temor, sino recibisteis el Espíritu de la bondad, por el cual clamamos: ¡Salve!
El espíritu se probará con nuestro espíritu que somos hijos de Dios;
Y si los hijos, después de Dios, é hiciere con Cristo con Cristo, si padeceremos también con él, para que también nosotros somos glorificado con él.
Porque por lo que padezco el trabajo de este tiempo, no es digno de ser digno de ser castigado con la gloria que se manifiesto.
Porque la crecía con águilidad parecía á los hijos de Dios, para que sean manifestados.
Porque la creación se sujetó á vanidad, no de su propia voluntad, sino á causa del que le sujetó;
Y será entregada de la servidumbre de la servidumbre en libertad á la libertad de los hijos de Dios.
Porque sabemos que toda crecimos, y paremos en una dolor, hasta ahora.
No solamente solamente, sino también nosotros, que tienen las primicias del Espíritu, aun hemos gemido en nosotros, esperando la plenitud de nuestro cuerpo.
Porque somos salvos en esperanza, mas la esperanza no es visto: porque el que espera.
Mas si esperamos en la esperanza, esperamos con paciencia.
En el mismo mismo Espíritu también se enseñorean de nuestra flauta; porque nosotros no sabemos como nosotros, como debemos cuestiones. Mas el Espíritu se cuestión con nosotros, el cual no podemos contar.
El que busca los corazones, lo que es en el Espíritu de la voluntad, por cuanto hace usura á los santos conforme á Dios.
Sabemos que todos para bien entre los que aman á Dios; porque á los que son llamados, según su purificación.
Porque á quien hizo imperio, también ha sido honrado la imagen de su Hijo, para que fuese el primogénito de muchos hermanos.
(A quién le contomitó, asimismo á aquellos que se llama: á los que también á él llamare, también á los justificará.
¿Y qué dirán de estas cosas? Si Dios es para nosotros, ¿quién nos podrá estar contra nosotros?
Mas el que no perdonó á su Hijo, sino le entregó por nosotros todos, ¿cómo no quiso también con él?
¿Quién podía hacer guerra contra los escogidos de Dios? El es Dios que justifica.
¿Quién es el que condena? El Cristo es el que murió, antes de los muertos, el cual es resucitado de la diestra de Dios, que también nos reciba caza.
¿Quién nos apartará de la caridad de Cristo, ó de angustia, ó de hambre, ó de hambre, ó de hambre, ó de espada, ó de espada?
Como está escrito: Por tu causa hemos sido muertos todo el día: hemos sido aparejados como ovejas para la matanza.
No, pues, en todas estas cosas somos más que el que nos amó.
Porque yo estoy persuadido, y la muerte, y la vida, y los ángeles, y los principios, y las cosas, y las salidas,
Ni la altura, ni la otra criada, ni la otra criada nos alcanzará del amor de Dios que está en Cristo Jesús.
Yo digo verdad en Cristo: no soy de mi conciencia, mi conciencia me conciencia en el Espíritu Santo,
Que tengo gran dolor y dolor en mi corazón.
Porque yo me podía justificar, por causa de Cristo, por amor de mis hermanos, conforme á la carne,
Que son Israel, cuyo consejo es la plenitud, y la gloria, y la gloria, y el pacto, y el ministerio, y el ministerio;
De los cuales son los padres, y de la carne, como Cristo, que está sobre toda carne, Dios bendijo para siempre. Amén.
Mas no es como la palabra de Dios para nada; porque no son todos los Israel de Israel.
Ni por la simiente de Abraham, porque son hijos de Abraham, todos: mas la simiente de ellos será estimada como Isaac.
No es lo que los hijos de la carne que son hijos de Dios, sino los hijos de la promesa son contados.
Porque esta palabra es palabra de la promesa: En el tiempo señalaré, y Sara tendrá hijo.
Mas no solamente solamente, sino también Rebeca por uno, por nuestro padre Isaac.
Porque no había sido nacido, ni hecho bien, para que la purificación de Dios conforme á la dureza de las obras, sino del que clama;
Y le dijo: El anciano servirá á la menor.
Como está escrito: Jacob amé, y amé á Esaú.
¿Y qué respondiremos? ¿y no habrá injusticia? No sea jamás.
Porque dijo á Moisés: Misericordia tengo de misericordia, y tendré misericordia de quien tengo misericordia.
Así que, no es del que correrá, ni del que corrigiere, sino de Dios que tiene misericordia.
Porque la Escritura dice á Faraón: Por lo cual os hice subir, para que yo os mostrase, para mostraros en mi potencia, y que mi nombre sea anunciada en toda la tierra.
Así que, tiene misericordia de quien quiere, y afligir al que quisiere.
Y diréis á mí: ¿Por qué ha de hallar aún? porque ¿y quién será su voluntad?
Mas ¿quién, hombre, que vosotros sois contristados contra Dios? ¿ó el que lo formó? ¿Por qué me haces así como esto?
¿O no pagará el alfarero al alfarero, desde el mismo vaso para hacer una vasija para honra, y otro para honra?
Y si Dios quisiere hacer bien su ira y hacer su fortaleza, y la paciencia de su potencia, y la paciencia de ira aparejada para destrucción,
Y para hacer notorio las riquezas de su gloria sobre los vasos de misericordia, que había preparado para gloria;
¿Para quién nos llamó, no de los Judíos, sino también de los Gentiles, sino también de los Gentiles?
Y así dice también en Henoch: Yo los llamaré, pueblo mío, que no era mi pueblo; y ella no era amado.
Y será que en el lugar donde les había sido dicho: No sois mi pueblo; allí serán llamados, hijos de Dios viviente.
Y di á Isaías acerca de Israel: Si el número de los hijos de Israel fuere como la arena de la mar, será salvo.
Porque él hará obra la obra, y la cortará en justicia; porque el Señor hará resplandecer sobre la tierra.
Y como dijo Isaías delante del Señor de los ejércitos: Si nosotros nos dejó simiente, éramos como Sodoma, éramos como Gomorra.
¿Y qué dijimos? ¿y á los Gentiles, que no seguían justicia en pos de justicia, la justicia que es de fe;
Mas Israel, en pos de la ley de la justicia, no expresó en la ley de justicia.
¿Por qué no buscaban á la fe, sino como eran por las obras de la ley, y tropezaron en piedra,
Como está escrito: He aquí yo pongo en Sión piedra fuerte y piedra de roca; y no hay quien en él cree.
Hermanos, el corazón de mi corazón, y mi oración es á Israel, para que sean salvos.
Porque yo les doy testimonio de lo que tienen celestial: mas no según la ciencia.
Porque ignorando de la justicia de Dios, buscando su justicia, no se sujetaron á la justicia de Dios.
Porque Cristo es el cumplimiento de la ley para justicia á todos los que cree.
Porque Moisés escribía por la justicia de la ley: El que los hiciere habitar con ellos.
Mas la justicia que es de la fe, dice así: ¿No decís en vuestro corazón? ¿Quién subirá al cielo?
¿Y quién descenderá al abismo? ¿y quién es el que descenderá de los muertos?
Mas ¿qué dice: La palabra está cerca de ti, en tu boca y en tu corazón: la palabra de la fe que hemos predicado:
Que si confesares con tu boca que Jesús es Señor, y creed en vuestro corazón que Dios le resucitó de los muertos, vosotros seréis salvos.
Porque con el corazón cree en justicia, y con la boca confesa la boca confesará en salud.
Porque la Escritura dice: Cualquiera que cree en él, no será avergonzado.
Porque no hay diferencia entre Judío y Griego; porque el mismo Señor es de todos los que le invocan.
Porque el que invocare al nombre del Señor, será salvo.
¿Cómo le llamarán en el cual no creyeron? ¿cómo creerán en el cual no oyeron? ¿Cómo oirán sin saber?
Y ¿cómo, cómo no son enviados? Como está escrito: ¡Cuán hermosas son los pies de los que anuncian el evangelio de paz, que se alegran de buenas cosas.
Mas no oyeron á oir la fama; porque así dijo Isaías: Señor, ¿quién ha creído?
Así vendrá la fe, y oídos de la palabra de Dios.
Mas dije: ¿No oían? Y de cierto, de cierto sale el sonido de la tierra, sus palabras á los fines del mundo.
Mas yo dije: ¿No sabía Israel? Así ha dicho Moisés: Yo os provocaré á celo con lo que no es nación, y os haré enojaros con gente faltar de entendimiento.
Y es Isaías, y dice: He sido hallados de los que no me buscan; y fuí manifestado á los que no me pidieron.
Mas de Israel dice así: Todo el día que yo extendí mis manos á los rebeldes y contrario.
Y dije: ¿Ha desechado á su pueblo? No sea yo también: porque también yo soy Israelita, descendienta de Abraham, de la tribu de Benjamín.
Mas Dios no menospreció á su pueblo, al cual él semana: ¿no sabéis lo que dice así de Elías? ¿Por qué juzgó con Dios contra Israel:
Señor, han muerto á tus profetas, y han derribado tus altares; yo solo estoy solo, y busqué mi vida.
Mas ¿cómo le respondí Dios? Yo he guardado por siete mil hombres que no se inclinaron á Baal.
Así también hay en este tiempo el resto, conforme á la gracia de la gracia.
Y si por gracia no es más de las obras; que la otra gracia no es gracia; mas si la obra de obras, no es fe; y otra obra obra.
¿Y qué, pues, quién buscó á Israel, y á los escogidos que no buscase? Y los demás se endurecieron.
Como está escrito: Dios les dió espíritu de mina, para que no vean, y oídos para no oir, y para que no oir, hasta hoy.
Y dijo David: Dejad su mesa, y córnate, y escándalos, y una dadla en ellas.
Sean oscurecidos sus ojos, y no miren; guarden sus lomos.
¿Para qué he sido escandalizados, y no caiga? No por su salud ha venido á los Gentiles, para irritarlos.
Y si sus riquezas caen las riquezas del mundo, y sus riquezas las riquezas de los Gentiles, ¿cuánto más su plenitud?
Porque yo os hablo á vosotros los Gentiles; y de cierto soy apóstol á los Gentiles, glorifico mi ministerio;
Y si en alguna persona me quiero enojar á los que son mi carne, y salvare algunos de ellos.
Porque si la desecha de ellos es la reconciliar del mundo, ¿qué su aceptación, ó la vida de los muertos?
Si el primer fruto es santo, así es la luminación: si la raíz santa es, así son los ramos.
Y si algunos de los ramos fueron quebrados, y vosotros, como olivares de oliva, en medio de ellos se echaban de ellos, y se convirtieren de la raíz de la oliva,
No te gloriendas sobre los ramos; mas si te gloriare, no te acordares de la raíz, sino hondura.
Y dirás: Así quebrantarás, para que fuese preso.
La verdad por su incredulidad fueron quebrados, y vosotros estáis en vuestra fe; no seáis llamados llamados llamados, sino temor.
Porque si Dios no perdonó á los ramos, ni te perdonará.
Mirad el bien y la prueba de Dios: la barba de los que cayeron, apreciad en vosotros; mas si tuviereis bien en su bondad, también vosotros seréis talados.
Y también si no permanecieren en su incredulidad, seréis echados en sus infieles; porque Dios los podrán echar.
Porque si sois cortados de lo que es de un árbol, y de oliva, ¿cuánto menos en buena oliva en buena oliva? ¿cuánto más las ramos, que son oídas?
Porque no quiero que ignoréis que ignoréis, hermanos de este mis mis misterio, para que no seáis sabios en vuestra plenitud, para que hay acepción de dureza á Israel, hasta que haya venido en abundancia,
Y será salvo á todo Israel. Como está escrito: De Sión saldrá el aljador, y él volverá la piedad de Jacob.
Este es mi pacto con ellos, cuando quitaré sus pecados.
Y por amor del evangelio son enemigos por vosotros: mas por la paciencia de los padres son amado, por amor de los padres.
Porque los dones y los invocan á Dios.
Porque vosotros habéis sido rebeldes á Dios; mas ahora habéis alcanzado misericordia de su rebelión,
Así también ahora han sido rebeldes, y por la misericordia de vosotros, para que también os quieren entender.
Porque Dios ha atado á toda rebelión, para que tenga misericordia de todos.
¡Oh quién diese las riquezas de las riquezas de la sabiduría y del conocimiento de Dios! ¡cuán son sus juicios, y sus caminos pasan!
Porque ¿quién conoció el corazón del Señor? ¿ó quién es su consejo?
¿A quién le dió primero, y le reprirá?
Porque de él y de él por él, y por todas las cosas le son gloria. Amén.
Por lo cual te ruego, hermanos, por las misericordias de Dios, para presentar vuestros cuerpos muertos, santo, santo es á Dios espiritual.
No confieses á este mundo, sino que sea hecho el reno de tu corazón, para que hagas lo bueno, y paga lo bueno, bien que es bueno, y perfecto de Dios.
Porque yo digo por la gracia que me es dada, á todo varón que está en medio de ti, no penséis más alto que vosotros: mas á pensamiento, como á Dios ha sido agradable.
Porque como muchos miembros en un cuerpo, y todos los miembros no tienen lo mismo;
Así nosotros, los que somos muchos, un cuerpo en Cristo, y por yerro de los unos á los otros,
Teniendo dones conforme á la gracia que nos ha sido dada: si profecía, si la profecía de nuestra fe profetizase conforme á la plenitud de nuestra fe;
Oyamos el ministerio, ó el que enseña, ó el que enseña á su doctrina;
O al que hiere, da á su exhortación; el que da con bondad, hacedlo con bondad; y el que señoreare, con diligencia, con plenitud.
Sea amor sin crimen: en lo malo, y en lo que es bueno.
En amor de los hermanos sean tiernos deleites el uno al otro: en el uno honra honra,
No pienso con diligencia, mas con espíritu, tentando al Señor,
Engüeando la esperanza, y en las angustias, y en la oración confía,
Y contradiciendo á las diferias de los santos, y dándonos á las diferias.
Bendecid á los que os persiguen; bendecid, y no maldicen.
Alegraos con los que se alegramos; dormiremos con los que lloran.
Y de la misma manera, el uno al otro: no pongáis en lo alto, sino como estiércol con los humildes: no seáis sabios en tu corazón.
No hay mal por mal: sálvate con los ojos de todos los hombres.
Y si es posible, como á ti se osga, sea paz con todos los hombres.
No buscéis á vosotros, amados, amados, mas dad á la ira de Dios: porque escrito está: Lo que me guarda, dice el Señor.
Por tanto, si tu enemigo se hambriento, y si sed sed, dale de beber: porque en lo que hiciere mal en su cabeza.
No seáis venidos del mal, sino vencáis mal con bien.
Todo alma sea sujeta á las potestades; porque no hay potestad sino potestad de Dios, y los que son determinados por Dios.
Por lo cual, el que guarda la potestad de Dios, y de los que se henchirán el juicio.
Porque los príncipes no son miedo de buena obra, sino al malo: ¿y no tendrás temor de la potestad? Haz lo que es bueno, y tú has de alabar de la potestad.
Porque él es siervo de Dios para bien; mas si hiciereis lo malo, teméis; porque no llevará espada en vano; porque es siervo de Dios, que el que ha de agradar.
Por lo cual vosotros tenéis necesidad, no solamente por causa de la ira, sino también por la conciencia.
Por lo cual también pensasteis vosotros, porque son siervos de Dios, para siempre, haciendo esto.
Por tanto, cada uno os dad: Si debiereis publicanos, pagad á publicanos; si las pruebas, entonces os aceptéis, y si fuere honrado, sea honrado.
No codiciemos á los unos á los otros: porque el que ama su prójimo, ha cumplido la ley.
Porque los mandamientos: No adulterarás: No matarás: No hurtarás: No hurtarás, y todo lo que hubiere dicho, diciendo: Vosotros sois llamados, y todo lo que están en este tiempo, diciendo: Vosotros améis á vuestro prójimo como améis.
No daño á la ley: por tanto la ley de la ley se cumplirá la ley.
Haz esto, que ya ya ya ya ya ya que ya os es tiempo que os despertéis, de sueño del sueño; porque ahora nos está cerca de nosotros que hemos creído.
Y la noche está lejos, y el día de día se ha acercado: por tanto, echaremos las obras de las tinieblas, y en las armas de luz.
Como andamos en el día, como en el día; no en las revelaciones y embriaguez, no en fornicación, ni encupiscencias, ni en contiendas y en los deseos.
Mas vestidamente al Señor Jesucristo, y no pagando la carne para concupiscencias.
Y el que es flaco en la fe; mas no por causa de las aflicciones.
El hombre tiene fe de comer todas las cosas; mas el que es flaco, come solo.
No coma al que comiere, no coma al que no coma: no coma al que come, no coma, porque Dios lo recibiere.
¿Quién sois los que juzgan al siervo de otro? ¿ó que está en su señor ó caerá; porque Dios será hecho para hacerlo?
Y el hombre, uno según el día de ellos, cada día; y cada día en su propia voluntad sea lleno.
El que guarda el día, guardalo al Señor; y el que no guardare el día, para guardarla al Señor, no guardará: porque el que comiere, come al Señor, porque no alabará al Señor; al que no aborrece, y al Señor, y al que no comiere, no coma.
Porque ninguno de nosotros vivimos á sí mismo, y no muriere.
Porque si vivimos, vivimos en el Señor; y si muramos, moriremos en el Señor; y si vivimos, nosotros moriremos, nosotros somos del Señor.
Porque á este fin murió Cristo, y otra vez moró, para que fuese Señor de los muertos y los vivientes.
Mas vosotros, ¿por qué juzgáis á vuestro hermano? ¿ó por qué menospreciáis tu hermano? porque nosotros estamos delante del tribunal de Cristo.
Porque escrito está: Vivo yo, dice el Señor, y todas rodillas: toda lengua confesará á Dios.
Así que, cada uno de nosotros darán cuenta á Dios.
Por tanto, no juzgue más el uno á otro: antes juzgará este más, que nadie tropiezo en el camino de su hermano, ni en caiga.
Yo sé que, y estoy persuadido en el Señor Jesús, que nada es inmundo; sino que al que con la conciencia sea inmundo, para ser inmundo.
Y si por amor de tu hermano fuere enojado, no andéis más en amor; no destruyas con tu comida por el cual murió Cristo.
Y no sea que vuestros bien sean avergonzados;
Porque el reino de Dios no se come, sino bebe, sino justicia, y gozo, y gozo en Espíritu Santo.
Porque el que guarda á Cristo en estas cosas es aceptible á Dios, y que bien es agradable á los hombres.
Así que, en pos de las cosas que haga paz, y en lo que edificamos los otros edificaremos.
No derribéis por amor de Dios, por amor de comer: mas todo lo que es limpio, ¿cuál es malo por causa de aquel hombre que escandalizare en tropiezo?
No es bueno comer carne, ni beber vino, ni ninguna cosa que tu hermano tropezare, ni es flaco.
¿Tienes fe? ¿y para ti delante de Dios: tú es el que no juzga en él, en lo que hace?
Ahora pues, que somos fuertes que deben ser flacos de los flacos, y no agrademos á nosotros.
Cada uno de nosotros agradable á su prójimo, que es bueno, para edificarlo.
Porque Cristo no agradó á sí mismo: mas como está escrito: La reprensión de los que os engañan contra mí.
Porque todas las cosas que estaban escritas delante de nuestra medida, por la paciencia y por la paciencia de las Escrituras.
Ahora pues, el Dios de la paciencia y de la paciencia, os es dado de la misma manera conciencia según Cristo Jesús,
Para que con una misma voluntad os honren á una boca al Dios y Padre de nuestro Señor Jesucristo.
Por lo cual recibid los unos á los otros, como Cristo os aceptó, á la gloria de Dios.
Y yo digo, que Cristo ha sido ministro de la circuncisión por la verdad de Dios, para confirmar las promesas,
Y á los Gentiles glorifican á Dios por su misericordia; como está escrito: Por tanto os alabaré en los Gentiles, y cantaré tu nombre.
Y otra vez dice: Dégrate, oh Gentiles con su pueblo.
Y otra vez: Al Señor, todos los Gentiles; todos los pueblos lo alaben.
Y otra vez Isaías dice: En la raíz de Isaí será el que se levanta para enseñorear de los Gentiles; y en él esperarán los Gentiles.
Ahora pues, el Dios de henchirte de toda gozo y de paz, para que creáis en esperanza del Espíritu Santo.
Yo también me persuadí de vosotros, hermanos míos, que vosotros sois llenos de bien, lleno de toda ciencia, también de toda ciencia.
Mas escribo la confianza de vosotros en parte de vosotros, á causa de la gracia que me ha sido dada por Dios;
Para que fuese siervo de Cristo Jesús á los Gentiles, sirviendo como sacerdote del evangelio de Dios, para ser acepto de los Gentiles, por el Espíritu Santo.
Por lo cual he sido mi glorioso en Cristo Jesús, para dar á Dios.
Porque no me disminuiré á ninguna cosa, sino á los que me han hecho por Cristo por la obediencia de los Gentiles, por palabra y por palabra;
En las señales de Dios y prodigios y prodigios, en poder de Dios; y desde Jerusalem hasta arriba y en derredor de lejos, he sido predicado el evangelio de Cristo;
Así que, haciendo predicar el evangelio á predicar el evangelio, no dónde era llamado Cristo, para que no edificase en otro fundamento.
Mas como está escrito: Verán, á los que no vinieron de él, ni oyeron las nuevas.
Por lo cual, aun aun aun de esta venida, de la venida de vosotros,
Mas ya ya no teniendo más lugar en estas partes, y teniendo ya muchos años de venir á vosotros;
Mas cuando yo traigo á ti, yo iré á ti; porque espero en ti, y sea ayudado en mi camino, y haya sido ayudado en ti el principio, si primero de tu compañía.
Mas ahora digo: Yo voy á Jerusalem, que á los santos.
Porque la buena voluntad de Macedonia y de Acaya, para hacer una dureza para los pobres que están en Jerusalem.
Y fué su voluntad buena voluntad, y ellos son sus amores; porque si los Gentiles han sido hechos hechos hechos hechos de sus espirituales, hágales también servirles en las cosas.
Así que, cuando acabare esto, les he sellado este fruto, iré de vosotros por el camino de vosotros.
Yo sé que cuando llegare á ti, entraré en la plenitud de la bendición del evangelio.
Y os ruego, hermanos, por nuestro Señor Jesucristo, y por amor del Espíritu, que vosotros os hiréis juntamente con vosotros en vuestras oraciones á Dios;
Para que sea librado de los que se rebelan en Judea, y que mi ministerio que tengo de Jerusalem porción á los santos;
Para que entréis con gozo en el gozo de Dios, y juntamente juntamente, hallad reposo.
Y el Dios de paz sea con vosotros todos. Amén.
Os encomendé á Pebón, y nuestro hermana, que es siervo de la iglesia que está en Crea;
Para que la recibiereis en el Señor, digno de los santos, y de que en lo que pidiereis algo de vosotros, porque también es de muchos, y de miembros.
Y á Prispa y á Aquila, á mis hermanos, que obran en Cristo Jesús,
Que por mi vida disipa mi alma, á los cuales no sólo yo doy gracias; mas también todas las iglesias de los Gentiles.
Y Greca la iglesia que está en su casa: Grepa, amado mío, amado mío, que es el primero de Acaya.
Y á María, que trabajaba mucho por nosotros.
Y Grechîco y Junia, hermanos míos y mis hermanos, que no hay en los apóstoles, que también en Cristo.
Y Gamías, Amós, amado mío en el Señor.
Y Grechîco, y nuestro compañero en Cristo, y Sela, y Sela, amado mío.
Y Geneter, acercóse en Cristo: Griegos á los que son de Arphaad.
Y á Herodes, y besa mía; y Getetetralos, de Netis, que están en el Señor.
Y Gripa y Tamia, que trabajan en el Señor; y á Gamín, ampara, amado, que trabajaba en el Señor.
Saluda, Retu, el escogido en el Señor, y su madre.
Y Genetho, y Phutón, y Hermanón, y Phinees, y Pasón, y sus hermanos que están con ellos.
Y Gességate y Julia, y Netusta y su hermana, y de su hermana, y de todos los santos que están con ellos.
Saludaos unos á otros con besos: las iglesias de Cristo os saludan.
Y os ruego, hermanos, mirad por los que son constituídos los cimientos, y escandalizados de escándalos á la doctrina que habéis aprendido, y os apartéis de ellos.
Porque los que no sirven á nuestro Señor Jesucristo, sino á su vientre; y con sus entrañas humanas, y lisonjan el corazón del inocente.
Porque vuestra obediencia se ha de ser notoria: por tanto os alegré: mas quiero que tenéis sabio en lo bueno, mas inocente en lo malo.
Y el Dios de paz se apresurará presto á Satanás debajo de tus pies: la gracia de nuestro Señor Jesucristo sea con vosotros.
Timoteo, considera, mi compañero, como Lucifeo, y Jasón, y Sasón, hermanos.
Yo, oh Tito, que escribe la carta, saludas en el Señor.
Y Gayo, y mi hato, y de toda la congregación, os saluda: Echîco, efecto de la ciudad, címbalos, címbalos como hace.
La gracia de nuestro Señor Jesucristo sea con todos vosotros. Amén.

"""The translator's lexicon as plain tables: nouns, adjectives and verbs with their Spanish forms.

corpus.py parses these into typed entries; editing a line here changes the corpus (and so the
shipped weights: retrain after any change).
"""

# ----------------------------------------------------------------------------------------------
# The lexicon. Columns are separated by whitespace; "-" means "no plural" (a mass noun).

# english singular, plural | spanish singular, plural | gender | tags
NOUN_TABLE = """
man men hombre hombres m human
woman women mujer mujeres f human
boy boys niño niños m human
girl girls niña niñas f human
king kings rey reyes m human
queen queens reina reinas f human
brother brothers hermano hermanos m human
sister sisters hermana hermanas f human
father fathers padre padres m human
mother mothers madre madres f human
son sons hijo hijos m human
daughter daughters hija hijas f human
uncle uncles tío tíos m human
aunt aunts tía tías f human
grandfather grandfathers abuelo abuelos m human
grandmother grandmothers abuela abuelas f human
waiter waiters camarero camareros m human
waitress waitresses camarera camareras f human
prince princes príncipe príncipes m human
princess princesses princesa princesas f human
husband husbands marido maridos m human
wife wives esposa esposas f human
actor actors actor actores m human
actress actresses actriz actrices f human
doctor doctors médico médicos m human
teacher teachers maestro maestros m human
friend friends amigo amigos m human
neighbor neighbors vecino vecinos m human
soldier soldiers soldado soldados m human
farmer farmers granjero granjeros m human
baker bakers panadero panaderos m human
student students estudiante estudiantes m human
lady ladies señora señoras f human
gentleman gentlemen señor señores m human
cat cats gato gatos m animal
dog dogs perro perros m animal
horse horses caballo caballos m animal
cow cows vaca vacas f animal
bird birds pájaro pájaros m animal
mouse mice ratón ratones m animal
rabbit rabbits conejo conejos m animal
duck ducks pato patos m animal
hen hens gallina gallinas f animal
pig pigs cerdo cerdos m animal
bear bears oso osos m animal
lion lions león leones m animal
tiger tigers tigre tigres m animal
wolf wolves lobo lobos m animal
fox foxes zorro zorros m animal
monkey monkeys mono monos m animal
snake snakes serpiente serpientes f animal
frog frogs rana ranas f animal
elephant elephants elefante elefantes m animal
goat goats cabra cabras f animal
bee bees abeja abejas f animal
spider spiders araña arañas f animal
turtle turtles tortuga tortugas f animal
owl owls búho búhos m animal
donkey donkeys burro burros m animal
giraffe giraffes jirafa jirafas f animal
whale whales ballena ballenas f animal
dolphin dolphins delfín delfines m animal
butterfly butterflies mariposa mariposas f animal
ant ants hormiga hormigas f animal
bread - pan - m food portable mass
meat - carne - f food portable mass
rice - arroz - m food portable mass
chocolate - chocolate - m food portable mass
apple apples manzana manzanas f food portable round
cheese cheeses queso quesos m food portable
soup soups sopa sopas f food
cake cakes pastel pasteles m food portable
egg eggs huevo huevos m food portable round
orange oranges naranja naranjas f food portable round
banana bananas plátano plátanos m food portable
cookie cookies galleta galletas f food portable
pear pears pera peras f food portable
grape grapes uva uvas f food portable round
lemon lemons limón limones m food portable
tomato tomatoes tomate tomates m food portable round
potato potatoes patata patatas f food portable
carrot carrots zanahoria zanahorias f food portable
salad salads ensalada ensaladas f food
fruit fruits fruta frutas f food portable
pizza pizzas pizza pizzas f food portable
sandwich sandwiches bocadillo bocadillos m food portable
candy candies caramelo caramelos m food portable
strawberry strawberries fresa fresas f food portable
milk - leche - f drink mass
lemonade - limonada - f drink mass
juice juices zumo zumos m drink
coffee coffees café cafés m drink
tea teas té tés m drink
wine wines vino vinos m drink
beer beers cerveza cervezas f drink
ball balls bola bolas f thing portable round toy
book books libro libros m thing portable text openable
letter letters carta cartas f thing portable text openable
newspaper newspapers periódico periódicos m thing portable text
box boxes caja cajas f thing portable container openable
bag bags bolsa bolsas f thing portable container openable
bottle bottles botella botellas f thing portable container openable breakable
cup cups taza tazas f thing portable container breakable dish
glass glasses vaso vasos m thing portable container breakable dish
plate plates plato platos m thing portable breakable dish
knife knives cuchillo cuchillos m thing portable dish
spoon spoons cuchara cucharas f thing portable dish
fork forks tenedor tenedores m thing portable dish
key keys llave llaves f thing portable
pen pens bolígrafo bolígrafos m thing portable
pencil pencils lápiz lápices m thing portable
shoe shoes zapato zapatos m thing portable clothes
hat hats sombrero sombreros m thing portable clothes
shirt shirts camisa camisas f thing portable clothes
dress dresses vestido vestidos m thing portable clothes
coat coats abrigo abrigos m thing portable clothes
skirt skirts falda faldas f thing portable clothes
sock socks calcetín calcetines m thing portable clothes
clock clocks reloj relojes m thing portable breakable
lamp lamps lámpara lámparas f thing portable breakable
phone phones teléfono teléfonos m thing portable breakable
computer computers ordenador ordenadores m thing breakable
picture pictures cuadro cuadros m thing portable
mirror mirrors espejo espejos m thing breakable
ring rings anillo anillos m thing portable round
candle candles vela velas f thing portable
toy toys juguete juguetes m thing portable toy
guitar guitars guitarra guitarras f thing portable instrument
piano pianos piano pianos m thing instrument
drum drums tambor tambores m thing portable instrument
stone stones piedra piedras f thing portable round
coin coins moneda monedas f thing portable round
map maps mapa mapas m thing portable
door doors puerta puertas f thing openable
window windows ventana ventanas f thing openable breakable
wall walls pared paredes f thing
car cars coche coches m thing vehicle inside
bicycle bicycles bicicleta bicicletas f thing vehicle
boat boats barco barcos m thing vehicle inside
train trains tren trenes m thing vehicle inside
plane planes avión aviones m thing vehicle inside
bus buses autobús autobuses m thing vehicle inside
truck trucks camión camiones m thing vehicle inside
chair chairs silla sillas f thing furniture surface breakable
table tables mesa mesas f thing furniture surface cover
bed beds cama camas f thing furniture surface cover
sofa sofas sofá sofás m thing furniture surface
desk desks escritorio escritorios m thing furniture surface cover
flower flowers flor flores f plant portable
plant plants planta plantas f plant portable
tree trees árbol árboles m plant cover
house houses casa casas f place inside
garden gardens jardín jardines m place inside
kitchen kitchens cocina cocinas f place inside
room rooms habitación habitaciones f place inside
park parks parque parques m place inside
street streets calle calles f place inside
school schools escuela escuelas f place inside
church churches iglesia iglesias f place inside
river rivers río ríos m place inside
forest forests bosque bosques m place inside
city cities ciudad ciudades f place inside
village villages pueblo pueblos m place inside
field fields campo campos m place inside
beach beaches playa playas f place inside
mountain mountains montaña montañas f place
lake lakes lago lagos m place inside
bridge bridges puente puentes m place cover
market markets mercado mercados m place inside
shop shops tienda tiendas f place inside
hospital hospitals hospital hospitales m place inside
office offices oficina oficinas f place inside
library libraries biblioteca bibliotecas f place inside
restaurant restaurants restaurante restaurantes m place inside
farm farms granja granjas f place inside
island islands isla islas f place inside
castle castles castillo castillos m place inside
hotel hotels hotel hoteles m place inside
museum museums museo museos m place inside
station stations estación estaciones f place inside
"""

# english | spanish m.sg f.sg m.pl f.pl | the noun tags it goes with
ADJECTIVE_TABLE = """
black negro negra negros negras animal thing plant
white blanco blanca blancos blancas animal thing plant
red rojo roja rojos rojas animal thing plant food
blue azul azul azules azules animal thing plant
green verde verde verdes verdes animal thing plant food
yellow amarillo amarilla amarillos amarillas animal thing plant food
brown marrón marrón marrones marrones animal thing plant food
gray gris gris grises grises animal thing plant
big grande grande grandes grandes human animal thing plant place food
small pequeño pequeña pequeños pequeñas human animal thing plant place food
old viejo vieja viejos viejas human animal thing plant place
new nuevo nueva nuevos nuevas thing place
young joven joven jóvenes jóvenes human animal plant
tall alto alta altos altas human plant
long largo larga largos largas thing place
heavy pesado pesada pesados pesadas thing animal
fast rápido rápida rápidos rápidas human animal vehicle
slow lento lenta lentos lentas human animal vehicle
beautiful bonito bonita bonitos bonitas human animal thing plant place
ugly feo fea feos feas human animal thing plant place
strong fuerte fuerte fuertes fuertes human animal drink
rich rico rica ricos ricas human food
poor pobre pobre pobres pobres human
cheap barato barata baratos baratas thing food drink
expensive caro cara caros caras thing food drink
clean limpio limpia limpios limpias thing place animal
dirty sucio sucia sucios sucias thing place animal
happy feliz feliz felices felices human animal
sad triste triste tristes tristes human animal
smart inteligente inteligente inteligentes inteligentes human animal
kind amable amable amables amables human
brave valiente valiente valientes valientes human animal
lazy perezoso perezosa perezosos perezosas human animal
famous famoso famosa famosos famosas human place
funny divertido divertida divertidos divertidas human animal
good bueno buena buenos buenas human animal thing plant place food drink
bad malo mala malos malas human animal thing plant place food drink
sweet dulce dulce dulces dulces food drink
fresh fresco fresca frescos frescas food drink plant
round redondo redonda redondos redondas round
soft blando blanda blandos blandas thing food
dark oscuro oscura oscuros oscuras place
quiet tranquilo tranquila tranquilos tranquilas human animal place
"""

# english base 3sg past | spanish present sg, pl, past sg, pl | subject tags | object tags
# An object of "-" makes the verb intransitive. A verb may appear once of each kind.
VERB_TABLE = """
drink drinks drank | bebe beben bebió bebieron | human animal | drink
eat eats ate | come comen comió comieron | human animal | food
see sees saw | ve ven vio vieron | human animal | human animal thing plant place food
want wants wanted | quiere quieren quiso quisieron | human animal | food drink thing animal
have has had | tiene tienen tuvo tuvieron | human | thing animal
buy buys bought | compra compran compró compraron | human | food drink thing animal plant
sell sells sold | vende venden vendió vendieron | human | food drink thing animal plant
find finds found | encuentra encuentran encontró encontraron | human animal | human animal thing food
open opens opened | abre abren abrió abrieron | human | openable
close closes closed | cierra cierran cerró cerraron | human | openable
break breaks broke | rompe rompen rompió rompieron | human animal | breakable
wash washes washed | lava lavan lavó lavaron | human | clothes dish vehicle
carry carries carried | lleva llevan llevó llevaron | human animal | portable
love loves loved | ama aman amó amaron | human | human animal
help helps helped | ayuda ayudan ayudó ayudaron | human animal | human
call calls called | llama llaman llamó llamaron | human | human animal
cook cooks cooked | cocina cocinan cocinó cocinaron | human | food
write writes wrote | escribe escriben escribió escribieron | human | text
paint paints painted | pinta pintan pintó pintaron | human | thing place
watch watches watched | mira miran miró miraron | human animal | human animal thing plant place
catch catches caught | atrapa atrapan atrapó atraparon | human animal | animal toy
push pushes pushed | empuja empujan empujó empujaron | human animal | human furniture vehicle
take takes took | toma toman tomó tomaron | human | portable drink
bring brings brought | trae traen trajo trajeron | human animal | portable drink
throw throws threw | lanza lanzan lanzó lanzaron | human | portable
kick kicks kicked | patea patean pateó patearon | human animal | toy furniture
clean cleans cleaned | limpia limpian limpió limpiaron | human | thing place
visit visits visited | visita visitan visitó visitaron | human | human place
hear hears heard | oye oyen oyó oyeron | human animal | human animal instrument
follow follows followed | sigue siguen siguió siguieron | human animal | human animal
chase chases chased | persigue persiguen persiguió persiguieron | human animal | human animal toy
bite bites bit | muerde muerden mordió mordieron | animal | human animal food thing
kiss kisses kissed | besa besan besó besaron | human | human animal
hug hugs hugged | abraza abrazan abrazó abrazaron | human | human animal
play plays played | toca tocan tocó tocaron | human | instrument
play plays played | juega juegan jugó jugaron | human animal | -
sleep sleeps slept | duerme duermen durmió durmieron | human animal | -
run runs ran | corre corren corrió corrieron | human animal | -
walk walks walked | camina caminan caminó caminaron | human animal | -
swim swims swam | nada nadan nadó nadaron | human animal | -
jump jumps jumped | salta saltan saltó saltaron | human animal | -
eat eats ate | come comen comió comieron | human animal | -
drink drinks drank | bebe beben bebió bebieron | human animal | -
fall falls fell | cae caen cayó cayeron | human animal thing | -
sing sings sang | canta cantan cantó cantaron | human | -
dance dances danced | baila bailan bailó bailaron | human | -
laugh laughs laughed | ríe ríen rio rieron | human | -
cry cries cried | llora lloran lloró lloraron | human | -
work works worked | trabaja trabajan trabajó trabajaron | human | -
wait waits waited | espera esperan esperó esperaron | human | -
"""
